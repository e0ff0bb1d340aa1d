// The measurement script for a workload: a short PyTorch program that trains a model of the workload's shape on the
// GPUs it finds for a few warm-up and timed steps and prints one JSON line (GPU, count, precision, tokens or samples
// per second, peak memory, versions). The CLI (`gpuvalue probe`) writes it; its logic is fixed text, only the CONFIG
// line at its top depends on the workload.
//
// probeConfig(workload, {preset, shape, plan, precision, fallback}) -> the CONFIG object (shape, plan and precision
// from the engine's estimate; fallback: the engine's defaults for an own transformer, for what the workload leaves
// out), or { error: {code, params} } when no script can stand for the workload (a CNN without a torchvision model of
// the same name).

// CNN presets and the torchvision model each one trains (torchvision.models.get_model names,
// https://pytorch.org/vision/stable/models.html).
export const TORCHVISION_MODELS = { 'resnet50-imagenet': 'resnet50' };

// Steps the script runs unless told otherwise: the first ones compile kernels and fill caches, the timed ones are
// averaged.
export const PROBE_WARMUP_STEPS = 3;
export const PROBE_TIMED_STEPS = 10;

export function probeConfig(workload, { preset, shape, plan, precision, fallback = {} } = {}) {
  const w = workload || {};
  const base = { probe_format: 1, preset: preset || null, mode: w.mode || 'pretrain', warmup_steps: PROBE_WARMUP_STEPS, timed_steps: PROBE_TIMED_STEPS };
  if (w.kind === 'cnn' || w.kind === 'vision') {
    const model = TORCHVISION_MODELS[preset];
    if (!model) return { error: { code: 'probe.no_torchvision_model', params: { id: preset || 'workload' } } };
    return { ...base, kind: 'cnn', model, image_size: w.image_size || 224, batch: w.batch_per_gpu || 32 };
  }
  const s = shape || {};
  const hidden = s.hidden || w.hidden;
  const heads = s.heads || w.heads;
  return {
    ...base,
    kind: 'transformer',
    layers: s.layers || w.layers,
    hidden,
    heads,
    kv_heads: s.kv_heads || w.kv_heads || heads,
    ffn_hidden: w.ffn_hidden || 4 * hidden,
    gated_mlp: (w.class || 'decoder').startsWith('decoder'),
    vocab: w.vocab || 32000,
    seq_len: w.seq_len || fallback.seq_len,
    micro_batch: (plan && plan.micro_batch) || w.micro_batch || 1,
    experts: w.experts || 0,
    experts_per_token: w.experts_per_token || 0,
    shared_experts: w.shared_experts || 0,
    expert_ffn_hidden: w.expert_ffn_hidden || 0,
    lora_rank: w.mode === 'lora' ? (w.lora_rank || 16) : 0,
    checkpointing: w.activation_checkpointing !== false,
    precision_planned: precision || 'bf16',
  };
}

// The script's classes: attention with grouped KV heads, a plain or gated MLP, top-k experts, LoRA adapters.
const PY_MODULES = `
def fail(message):
    print(json.dumps({"gpuvalue_probe": CONFIG["probe_format"], "error": message}))
    sys.exit(1)

if not torch.cuda.is_available():
    fail("no CUDA GPU visible to PyTorch")
world = int(os.environ.get("WORLD_SIZE", "1"))
rank = int(os.environ.get("RANK", "0"))
local = int(os.environ.get("LOCAL_RANK", "0"))
torch.cuda.set_device(local)
if world > 1:
    torch.distributed.init_process_group("nccl")
device = torch.device("cuda", local)
props = torch.cuda.get_device_properties(device)

class Attention(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.heads, self.kv_heads = c["heads"], c["kv_heads"]
        self.head_dim = c["hidden"] // c["heads"]
        self.q = nn.Linear(c["hidden"], self.heads * self.head_dim, bias=False)
        self.kv = nn.Linear(c["hidden"], 2 * self.kv_heads * self.head_dim, bias=False)
        self.o = nn.Linear(self.heads * self.head_dim, c["hidden"], bias=False)

    def forward(self, x):
        b, t, _ = x.shape
        q = self.q(x).view(b, t, self.heads, self.head_dim).transpose(1, 2)
        k, v = self.kv(x).view(b, t, 2, self.kv_heads, self.head_dim).unbind(2)
        k, v = (y.transpose(1, 2).repeat_interleave(self.heads // self.kv_heads, dim=1) for y in (k, v))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.o(y.transpose(1, 2).reshape(b, t, -1))

class Mlp(nn.Module):
    def __init__(self, hidden, ffn, gated):
        super().__init__()
        self.gated = gated
        self.up = nn.Linear(hidden, (2 if gated else 1) * ffn, bias=False)
        self.down = nn.Linear(ffn, hidden, bias=False)

    def forward(self, x):
        if self.gated:
            a, g = self.up(x).chunk(2, dim=-1)
            return self.down(F.silu(g) * a)
        return self.down(F.gelu(self.up(x)))

class Experts(nn.Module):
    # Top-k routing over small MLPs, each expert applied to the tokens routed to it.
    def __init__(self, c):
        super().__init__()
        self.k = c["experts_per_token"]
        self.router = nn.Linear(c["hidden"], c["experts"], bias=False)
        self.experts = nn.ModuleList(Mlp(c["hidden"], c["expert_ffn_hidden"], True) for _ in range(c["experts"]))
        self.shared = Mlp(c["hidden"], c["shared_experts"] * c["expert_ffn_hidden"], True) if c["shared_experts"] else None

    def forward(self, x):
        flat = x.reshape(-1, x.shape[-1])
        weights, chosen = torch.topk(self.router(flat).softmax(-1), self.k, dim=-1)
        out = torch.zeros_like(flat)
        for e, expert in enumerate(self.experts):
            token, slot = (chosen == e).nonzero(as_tuple=True)
            if token.numel():
                out.index_add_(0, token, expert(flat[token]) * weights[token, slot].unsqueeze(-1))
        if self.shared is not None:
            out = out + self.shared(flat)
        return out.view_as(x)

class Block(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.n1, self.n2 = nn.LayerNorm(c["hidden"]), nn.LayerNorm(c["hidden"])
        self.attn = Attention(c)
        self.mlp = Experts(c) if c["experts"] > 1 else Mlp(c["hidden"], c["ffn_hidden"], c["gated_mlp"])

    def forward(self, x):
        x = x + self.attn(self.n1(x))
        return x + self.mlp(self.n2(x))

class LoraLinear(nn.Module):
    # A frozen linear layer with a trainable low-rank update (rank r), as LoRA fine-tuning trains it.
    def __init__(self, base, r):
        super().__init__()
        self.base = base.requires_grad_(False)
        self.a = nn.Linear(base.in_features, r, bias=False)
        self.b = nn.Linear(r, base.out_features, bias=False)
        nn.init.zeros_(self.b.weight)

    def forward(self, x):
        return self.base(x) + self.b(self.a(x))

`;

// Its model builders and the timed loop that prints the JSON line.
const PY_RUN = `def layer_params(c):
    h, hd = c["hidden"], c["hidden"] // c["heads"]
    attn = h * c["heads"] * hd * 2 + h * 2 * c["kv_heads"] * hd
    if c["experts"] > 1:
        mlp = (c["experts"] + c["shared_experts"]) * 3 * h * c["expert_ffn_hidden"] + h * c["experts"]
    else:
        mlp = (3 if c["gated_mlp"] else 2) * h * c["ffn_hidden"]
    return attn + mlp

class Gpt(nn.Module):
    def __init__(self, c, layers_run):
        super().__init__()
        self.c = c
        self.embed = nn.Embedding(c["vocab"], c["hidden"])
        self.blocks = nn.ModuleList(Block(c) for _ in range(layers_run))
        self.norm = nn.LayerNorm(c["hidden"])
        self.head = nn.Linear(c["hidden"], c["vocab"], bias=False)
        if c["lora_rank"]:
            self.requires_grad_(False)
            for blk in self.blocks:
                blk.attn.q = LoraLinear(blk.attn.q, c["lora_rank"])
                blk.attn.o = LoraLinear(blk.attn.o, c["lora_rank"])

    def forward(self, tokens):
        from torch.utils.checkpoint import checkpoint
        x = self.embed(tokens[:, :-1])
        for blk in self.blocks:
            x = checkpoint(blk, x, use_reentrant=False) if self.c["checkpointing"] else blk(x)
        logits = self.head(self.norm(x))
        return F.cross_entropy(logits.float().view(-1, self.c["vocab"]), tokens[:, 1:].reshape(-1))

def transformer_step(c):
    # Bytes per parameter: bf16 weights and gradients and fp32 Adam moments and master weights (16), or frozen bf16
    # weights only under LoRA (2); half the GPU's memory is kept for activations and the workspace.
    bytes_per_param = 2 if c["lora_rank"] else 16
    budget = 0.5 * props.total_memory - bytes_per_param * 2 * c["vocab"] * c["hidden"]
    layers_run = max(1, min(c["layers"], int(budget // (bytes_per_param * layer_params(c)))))
    model = Gpt(c, layers_run).to(device)
    ddp = torch.nn.parallel.DistributedDataParallel(model, device_ids=[local]) if world > 1 else model
    opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-4, fused=True)

    def step():
        tokens = torch.randint(0, c["vocab"], (c["micro_batch"], c["seq_len"] + 1), device=device)
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = ddp(tokens)
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
    return step, layers_run, c["micro_batch"] * c["seq_len"], "tokens_per_s"

def cnn_step(c):
    import torchvision
    model = torchvision.models.get_model(c["model"], weights=None).to(device).to(memory_format=torch.channels_last)
    ddp = torch.nn.parallel.DistributedDataParallel(model, device_ids=[local]) if world > 1 else model
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)

    def step():
        images = torch.randn(c["batch"], 3, c["image_size"], c["image_size"], device=device).to(memory_format=torch.channels_last)
        labels = torch.randint(0, 1000, (c["batch"],), device=device)
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = F.cross_entropy(ddp(images).float(), labels)
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
    return step, None, c["batch"], "samples_per_s"

try:
    step, layers_run, units_per_step, metric = (cnn_step if CONFIG["kind"] == "cnn" else transformer_step)(CONFIG)
    for _ in range(CONFIG["warmup_steps"]):
        step()
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(CONFIG["timed_steps"]):
        step()
    torch.cuda.synchronize()
    seconds = time.perf_counter() - start
except torch.cuda.OutOfMemoryError:
    fail("out of GPU memory: lower micro_batch or seq_len in CONFIG")

result = {
    "gpuvalue_probe": CONFIG["probe_format"], "preset": CONFIG["preset"], "kind": CONFIG["kind"], "mode": CONFIG["mode"],
    "gpu_name": props.name, "gpu_memory_gb": round(props.total_memory / 1e9, 1), "gpu_count": world,
    "precision": "bf16", metric: round(world * CONFIG["timed_steps"] * units_per_step / seconds, 1),
    "step_s": round(seconds / CONFIG["timed_steps"], 4), "peak_memory_gb": round(torch.cuda.max_memory_allocated(device) / 1e9, 2),
    "torch": torch.__version__, "cuda": torch.version.cuda,
}
if layers_run is not None:
    result.update({"layers_run": layers_run, "layers": CONFIG["layers"], "seq_len": CONFIG["seq_len"], "micro_batch": CONFIG["micro_batch"]})
if rank == 0:
    print(json.dumps(result))
if world > 1:
    torch.distributed.destroy_process_group()
`;

// The script's text for a CONFIG object: a header saying what it measures, the CONFIG line, the fixed code.
export function probeScript(config) {
  return `#!/usr/bin/env python3
# gpuvalue measurement script. Trains a model of your workload's shape on synthetic data and prints one JSON line:
# paste that line into gpuvalue (the page's "Your measurement" box, or: gpuvalue rank ... --measured FILE).
#
# What it measures: forward, backward and optimizer step of a model with your workload's layer shape, in bf16
# autocast, on random data, for ${config.timed_steps} timed steps after ${config.warmup_steps} warm-up steps.
# What it leaves out: your data loading, checkpoint saving, evaluation, and your own kernels (it uses PyTorch's
# scaled_dot_product_attention); fp8 training is measured as bf16 (plain PyTorch has no fp8 training).
# A model too large for one GPU is measured with as many of its layers as fit (layers_run in the output); gpuvalue
# scales the result by the layer count.
# Run: python3 probe.py            (one GPU)
#      torchrun --nproc_per_node=8 probe.py   (data parallel over 8 GPUs of one machine)
# Needs: Python 3.9+, PyTorch 2.1+ with CUDA (and torchvision for CNN workloads). No network access.
import json, os, sys, time
import torch
import torch.nn as nn
import torch.nn.functional as F

CONFIG = json.loads(${JSON.stringify(JSON.stringify(config))})
${PY_MODULES}${PY_RUN}`;
}
