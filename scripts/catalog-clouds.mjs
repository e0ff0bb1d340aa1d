// The SkyPilot catalog clouds that scripts/catalog-update.mjs turns into data/catalog files: folder name ->
// catalog file, provider display name, id prefix, and what the CSV cannot say (billing increment, marketplace).
// marketplace: offers from independent hosts rented through a marketplace (peer-to-peer), with no provider-run
// datacentre behind the price; marketplace_types: the instance types of a cloud that are such offers.
// siblings: catalog files whose offers map the same machines (instance type -> GPU) for the importer's hints;
// known_gpus: machines whose GPU a provider's documentation names where the CSV does not ({types, note}: the note,
// with its source, goes into the offers' notes).

export const CLOUDS = {
  aws: {
    key: 'aws', file: 'aws.json', provider: 'AWS',
    // Network per instance type (SkyPilot's file has no network column): the "Network specifications" table of
    // docs.aws.amazon.com/ec2/latest/instancetypes/ac.html. EFA with GPUDirect RDMA on P4d/P4de/P5/P5e/P5en/P6;
    // p3dn's EFA has no GPUDirect RDMA, and the single-GPU P3 and p5.4xlarge sizes are ENA only for this purpose.
    network: {
      types: {
        'p4d.24xlarge': 400, 'p4de.24xlarge': 400, // "4x 100 Gigabit"
        'p5.48xlarge': 3200, 'p5e.48xlarge': 3200, 'p5en.48xlarge': 3200, // "3200 Gigabit"
        'p6-b200.48xlarge': 3200, // "8x 400 Gigabit"
        'p3dn.24xlarge': { gbps: 100, rdma: false }, 'p3.16xlarge': { gbps: 25, rdma: false }, 'p3.8xlarge': { gbps: 10, rdma: false },
        'p3.2xlarge': { gbps: 10, rdma: false }, 'p5.4xlarge': { gbps: 100, rdma: false }, // "Up to 10", "25", "10", "100 Gigabit"
      },
      note: 'Network per instance type from AWS\'s accelerated computing specifications (docs.aws.amazon.com/ec2/latest/instancetypes/ac.html).',
    },
  },
  // SkyPilot's GCP file prices 8 attached H100s at $33.61/h in us-central1, us-west1, asia-northeast1, … and at
  // $78.37-$101.88 elsewhere (a3-highgpu-8g $43.07 vs $87.83 in us-east4 with the same host price). Google's Cloud
  // Billing catalog (read 2026-09-26, github.com/tgarg01/silybench-data derived/csv/gpu_prices.csv @045df3bf) prices
  // us-central1 like us-east4 ($10.9791 per a3-highgpu GPU-hour), so the low rows are wrong: regional prices under half
  // their machine's median are left out rather than offered (gcp.json carries us-central1's billing-catalog price).
  gcp: { key: 'gcp', file: 'gcp.json', provider: 'Google Cloud', doubt_half_price: true },
  // Microsoft Azure: SkyPilot's own catalog keeps no Azure file after v6; anycloud-sh/catalog publishes one in the
  // same vms.csv format (azure/vms.csv, 58 regions, refreshed by commits; its commit date is the prices' as_of).
  // The file names the GPU family only ("A100-80GB", "H100"); Azure's size pages name the part:
  azure: {
    key: 'azure', file: 'azure.json', provider: 'Microsoft Azure', repo: 'anycloud-sh/catalog',
    // Its writer leaves the Generation value "V1,V2" unquoted (a row of 11 fields under 10 headers: every T4, A10, M60
    // and MI25 size); SkyPilot's own files quote it. The update quotes it back before the import.
    unquoted_generation: true,
    // NVads A10 v5 sizes rent a fraction of one A10 (AcceleratorCount 0.167, 0.333, 0.5: "starting at 1/6th of a GPU
    // with 4-GiB frame buffer", learn.microsoft.com/azure/virtual-machines/nva10v5-series): a share of the GPU's time
    // and memory, which the engine does not model. Left out and listed; the whole-GPU NV36ads/NV72ads sizes are kept.
    fractions: 'a share of one GPU\'s time and memory (Azure NVads A10 v5 partial GPUs, learn.microsoft.com/azure/virtual-machines/nva10v5-series); the engine models whole GPUs',
    known_gpus: {
      types: {
        // NC A100 v4: "NVIDIA A100 PCIe GPUs" (learn.microsoft.com/azure/virtual-machines/sizes/gpu-accelerated/nca100v4-series)
        Standard_NC24ads_A100_v4: 'a100-pcie-80gb', Standard_NC48ads_A100_v4: 'a100-pcie-80gb', Standard_NC96ads_A100_v4: 'a100-pcie-80gb',
        // NCads H100 v5 and NCCads H100 v5: 94 GB per GPU ("Accelerator-Memory (GB)": 94 / 188), the H100 NVL card
        // (learn.microsoft.com/azure/virtual-machines/sizes/gpu-accelerated/ncadsh100v5-series, nccadsh100v5-series)
        Standard_NC40ads_H100_v5: 'h100-nvl-94gb', Standard_NC80adis_H100_v5: 'h100-nvl-94gb', Standard_NCC40ads_H100_v5: 'h100-nvl-94gb',
      },
      note: 'Azure\'s size pages name the part: NC A100 v4 has A100 PCIe cards; NCads/NCCads H100 v5 have 94 GB H100 NVL cards (learn.microsoft.com/azure/virtual-machines/sizes/gpu-accelerated/nca100v4-series, ncadsh100v5-series).',
    },
    // Sizes Azure has retired: still in the price list, no longer rentable. "The NCv3-series will be retired on
    // September 30, 2025" (learn.microsoft.com/azure/virtual-machines/sizes/gpu-accelerated/ncv3-series).
    retired: {
      types: ['Standard_NC6s_v3', 'Standard_NC12s_v3', 'Standard_NC24s_v3', 'Standard_NC24rs_v3'],
      note: 'NCv3 (V100 PCIe) retired by Azure on 2025-09-30 (learn.microsoft.com/azure/virtual-machines/sizes/gpu-accelerated/ncv3-series)',
    },
    // InfiniBand of the ND sizes, per VM (the size pages' summaries): network_gbps and rdma (GPUDirect RDMA).
    network: {
      types: {
        // "3.2 Tbps of interconnect bandwidth per VM … 400 Gb/s NVIDIA Quantum-2 CX7 InfiniBand" per GPU (ndh100v5-series)
        Standard_ND96isr_H100_v5: 3200,
        // same for ND H200 v5 (nd-h200-v5-series) and ND MI300X v5 (ndmi300xv5-series)
        Standard_ND96isr_H200_v5: 3200, Standard_ND96isr_MI300X_v5: 3200,
        // "1.6 TB/s of interconnect bandwidth per VM", 200 Gb/s HDR InfiniBand per GPU (ndasra100v4-series, ndma100v4-series)
        Standard_ND96asr_v4: 1600, Standard_ND96amsr_A100_v4: 1600,
        // "100-Gigabit InfiniBand EDR backend networking" (ndv2-series)
        Standard_ND40rs_v2: 100,
      },
      note: 'InfiniBand per VM with GPUDirect RDMA, from Azure\'s size page of the series (learn.microsoft.com/azure/virtual-machines/sizes/gpu-accelerated/).',
    },
  },
  // Alibaba Cloud is not in SkyPilot's own catalog; the fork sugarlxn/skypilot-catalog fetches it from Alibaba's
  // price API into the same vms.csv format (USD, international site).
  alicloud: {
    key: 'alibaba', file: 'alibaba.json', provider: 'Alibaba Cloud',
    note: 'USD list price from Alibaba Cloud\'s price API as fetched by the fork; region and zones as the API lists them.',
  },
  lambda: {
    key: 'lambda', file: 'lambda.json', provider: 'Lambda', billing_increment_s: 60,
    note: 'Lambda bills on-demand instances in one-minute increments (docs.lambda.ai/public-cloud/billing).',
  },
  // RunPod's COMMUNITY cloud is hosts of third parties; SECURE is RunPod's own datacentres
  // (docs.runpod.io/pods/choose-a-pod: "Community Cloud … peer-to-peer").
  runpod: { key: 'runpod', file: 'runpod.json', provider: 'RunPod', marketplace_types: /_COMMUNITY$/ },
  oci: { key: 'oci', file: 'oracle.json', provider: 'Oracle Cloud (OCI)' },
  verda: { key: 'verda', file: 'verda.json', provider: 'Verda (DataCrunch)' },
  nebius: { key: 'nebius', file: 'nebius.json', provider: 'Nebius' },
  hyperstack: { key: 'hyperstack', file: 'hyperstack.json', provider: 'Hyperstack' },
  cudo: { key: 'cudo', file: 'cudo.json', provider: 'CUDO Compute' },
  fluidstack: { key: 'fluidstack', file: 'fluidstack.json', provider: 'Fluidstack' },
  paperspace: { key: 'paperspace', file: 'paperspace.json', provider: 'Paperspace' },
  // Vast.ai: "a marketplace for renting GPUs from hosts" (docs.vast.ai); every offer is a host's listing.
  vast: {
    key: 'vast', file: 'vast.json', provider: 'Vast.ai', marketplace: true,
    note: 'Vast.ai is a marketplace of independent hosts; SkyPilot lists one row per host offer (region = host location).',
  },
  // Shadeform resells other clouds' machines at one price list; rows are split by the cloud named in the type.
  shadeform: { key: 'shadeform', file: 'shadeform.json', provider: 'Shadeform', note: 'Price of the machine booked through Shadeform.' },
  // Prime Intellect lists the machines of datacentre clouds (Lambda, Hyperstack, DataCrunch, Crusoe, Nebius, … in
  // the instance type's prefix) at one price list, as Shadeform does: not peer-to-peer hosts.
  // Its UpstreamCloudId is the machine's id at that cloud: Hyperstack's n3-H100x1 is the H100 PCIe there.
  primeintellect: { key: 'primeintellect', file: 'primeintellect.json', provider: 'Prime Intellect', siblings: ['hyperstack.json'] },
  // Mithril is left out: SkyPilot's fetcher (sky/catalog/data_fetchers/fetch_mithril.py) writes the spot auction's
  // minimum bid (minimum_price_cents / 100) as both Price and SpotPrice, e.g. $0.01 per A100-hour: not a price a
  // job pays.
  seeweb: { key: 'seeweb', file: 'seeweb.json', provider: 'Seeweb' },
  yotta: { key: 'yotta', file: 'yotta.json', provider: 'Yotta' },
  jarvislabs: { key: 'jarvislabs', file: 'jarvislabs.json', provider: 'JarvisLabs' },
  // Hyperbolic's GPU marketplace rents machines of third-party suppliers (hyperbolic.xyz, "GPU marketplace").
  hyperbolic: { key: 'hyperbolic', file: 'hyperbolic.json', provider: 'Hyperbolic', marketplace: true },
  // Lium (Bittensor subnet 51): "a decentralized, peer-to-peer GPU rental marketplace, connecting miners who contribute
  // GPU resources with users" (github.com/Datura-ai/lium-io, README); every offer is a miner's machine.
  lium: {
    key: 'lium', file: 'lium.json', provider: 'Lium', marketplace: true,
    note: 'Lium is a peer-to-peer marketplace of miners\' GPU machines; SkyPilot lists one row per machine (region = its country code).',
  },
  // Spheron sources its GPU capacity from other providers (docs.spheron.network/concepts: "Voltage Park, DataCrunch,
  // TensorDock, Sesterce, Spheron AI, and Massed Compute"): datacentre offers, not peer-to-peer hosts. Same page:
  // "All instance types enforce a 20-minute minimum runtime before manual termination."
  // Spheron's spheron-ai rows resell Hyperstack machines under Hyperstack's names ("n3-H100x8-NVLink__CANADA-1").
  spheron: {
    key: 'spheron', file: 'spheron.json', provider: 'Spheron', siblings: ['hyperstack.json'],
    note: 'Price of a machine of one of the providers Spheron sources from (SkyPilot\'s Provider column), booked through Spheron; a 20-minute minimum runtime applies (docs.spheron.network/concepts).',
  },
  // Daytona GPU sandboxes (daytona.io/docs/en/gpu-sandboxes): on-demand or spot capacity; region "earth" is Daytona's
  // global placement, which lets Daytona choose the region (daytona.io/docs/en/v2/regions).
  daytona: {
    key: 'daytona', file: 'daytona.json', provider: 'Daytona',
    note: 'Daytona GPU sandbox; region "earth" is Daytona\'s global placement (Daytona picks the region).',
  },
};

// Shadeform instance-type prefixes -> the cloud that runs the machine (all go to shadeform.json).
const viaShadeform = (key, name) => ({
  key: `shadeform-${key}`, file: 'shadeform.json', provider: `${name} (via Shadeform)`,
  note: `Price of ${name}'s machine booked through Shadeform's multi-cloud marketplace.`,
});
export const SHADEFORM_CLOUDS = {
  // Crusoe sells the A100 80GB as PCIe ($2.00 per GPU-hour) and SXM ($2.30) (crusoe.ai/cloud/pricing, as transcribed
  // 2026-09-20 in github.com/api-evangelist/crusoe plans/crusoe-plans-pricing.yml); Shadeform's crusoe_A100-80GB rows
  // cost $2.00 per GPU-hour and its SXM machine is named crusoe_A100-80G-sxm4x8 ($18.40 = 8 x $2.30).
  crusoe: {
    ...viaShadeform('crusoe', 'Crusoe'),
    known_gpus: {
      types: { 'crusoe_A100-80GB': 'a100-pcie-80gb', 'crusoe_A100-80GBx2': 'a100-pcie-80gb', 'crusoe_A100-80GBx4': 'a100-pcie-80gb' },
      note: 'Crusoe\'s A100 80GB at $2.00 per GPU-hour is its PCIe card (crusoe.ai/cloud/pricing lists A100 80GB PCIe $2.00, SXM $2.30); the SXM machine is crusoe_A100-80G-sxm4x8.',
    },
  },
  denvr: viaShadeform('denvr', 'Denvr Dataworks'),
  excesssupply: viaShadeform('excesssupply', 'Excess Supply'),
  hyperstack: viaShadeform('hyperstack', 'Hyperstack'),
  lambdalabs: viaShadeform('lambdalabs', 'Lambda'),
  massedcompute: viaShadeform('massedcompute', 'Massed Compute'),
  paperspace: viaShadeform('paperspace', 'Paperspace'),
  // Scaleway's H100-1-80G and H100-2-80G are PCIe cards; its SXM machines are named H100-SXM-2/4/8-80G
  // (www.scaleway.com/en/docs/gpu/reference-content/choosing-gpu-instance-type/ and migration-h100/: "Migrating
  // from H100-2-80G to H100-SXM-2-80G", 2025-11-04). Shadeform lists the PCIe ones as scaleway_H100 / scaleway_H100x2.
  scaleway: {
    ...viaShadeform('scaleway', 'Scaleway'),
    known_gpus: {
      types: { scaleway_H100: 'h100-pcie-80gb', scaleway_H100x2: 'h100-pcie-80gb' },
      note: 'Scaleway\'s H100-1-80G / H100-2-80G are H100 PCIe cards (Scaleway docs, choosing-gpu-instance-type and migration-h100: its SXM machines are H100-SXM-N-80G).',
    },
  },
  vultr: viaShadeform('vultr', 'Vultr'),
};
