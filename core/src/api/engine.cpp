#include "gpuvalue/engine.hpp"

#include <cmath>
#include <unordered_map>
#include <unordered_set>

#include "tools/decisions.hpp"
#include "io/json_writer.hpp"
#include "model/ranking.hpp"
#include "import/skypilot.hpp"

namespace gpuvalue {

json issuesToJson(const Issues& issues) {
  json a = json::array();
  for (const auto& i : issues)
    a.push_back({{"code", errorCodeName(i.code)}, {"path", i.path}, {"message", i.message}, {"warning", i.warning}});
  return a;
}

std::string errorResult(const Issues& issues) {
  json r = {{"ok", false}, {"issues", issuesToJson(issues)}};
  for (const auto& i : issues)
    if (!i.warning) {
      r["error"] = {{"code", errorCodeName(i.code)}, {"path", i.path}, {"message", formatIssue(i)}};
      break;
    }
  if (!r.contains("error")) r["error"] = {{"code", "internal"}, {"path", ""}, {"message", "unknown error"}};
  return dumpJson(r);
}

static std::string internalError(const char* what) {
  Issues is{{ErrorCode::kInternal, "", std::string("internal error: ") + what}};
  return errorResult(is);
}

// Every public method runs its body through this guard so that no exception crosses the API.
template <typename F>
static std::string guarded(F&& body) {
  try {
    return body();
  } catch (const std::exception& e) {
    return internalError(e.what());
  } catch (...) {
    return internalError("unknown exception");
  }
}

static double finiteOr(double v, double fallback = 0) { return std::isfinite(v) ? v : fallback; }

std::string Engine::loadGpus(const std::string& text) {
  return guarded([&] {
    GpuDatabase db;
    Issues issues = db.load(text);
    if (hasErrors(issues)) return errorResult(issues);
    gpus_ = std::move(db);
    for (auto& o : catalog_.offers) o.gpu = gpus_.find(o.gpu_id);
    return dumpJson({{"ok", true}, {"count", gpus_.all().size()}, {"issues", issuesToJson(issues)}});
  });
}

std::string Engine::applyCatalog(Catalog& fresh, Issues& found, bool replace, bool dry_run) {
  if (hasErrors(found)) return errorResult(found);
  size_t n = fresh.offers.size();
  if (!dry_run) {
    if (replace) catalog_ = std::move(fresh);
    else appendOffers(catalog_.offers, fresh.offers);
  }
  return dumpJson({{"ok", true}, {"count", n}, {"total", catalog_.offers.size()}, {"issues", issuesToJson(found)}});
}

std::string Engine::catalogOp(const std::string& text, bool replace, bool dry_run) {
  return guarded([&] {
    Issues issues;
    if (gpus_.empty()) {
      issues.push_back({ErrorCode::kNotFound, "", "load the GPU database before a catalog"});
      return errorResult(issues);
    }
    Catalog fresh;
    std::unordered_set<std::string> ids;
    if (!replace)
      for (const auto& o : catalog_.offers) ids.insert(o.id);
    if (parseCatalogStream(text, gpus_, ids, fresh, today_, issues)) return applyCatalog(fresh, issues, replace, dry_run);
    json doc;
    if (!parseJsonText(text, doc, issues, "catalog")) return errorResult(issues);
    // Either one document or an array of documents (paths are prefixed with the document index).
    if (doc.is_array()) {
      for (size_t i = 0; i < doc.size(); ++i) {
        Issues sub = parseCatalog(doc[i], gpus_, ids, fresh, today_);
        for (auto& s : sub) {
          s.path = "/" + std::to_string(i) + s.path;
          issues.push_back(std::move(s));
        }
      }
    } else {
      issues = parseCatalog(doc, gpus_, ids, fresh, today_);
    }
    return applyCatalog(fresh, issues, replace, dry_run);
  });
}

std::string Engine::catalogBegin(const std::string& mode, double total_bytes) {
  return guarded([&] {
    Issues issues;
    stream_.reset();
    if (gpus_.empty()) issues.push_back({ErrorCode::kNotFound, "", "load the GPU database before a catalog"});
    if (mode != "load" && mode != "add" && mode != "validate")
      issues.push_back({ErrorCode::kInvalidValue, "", "mode must be load, add or validate"});
    if (hasErrors(issues)) return errorResult(issues);
    auto s = std::make_unique<Stream>();
    s->replace = mode != "add";
    s->dry_run = mode == "validate";
    if (!s->replace)
      for (const auto& o : catalog_.offers) s->ids.insert(o.id);
    s->reader = std::make_unique<CatalogStreamReader>(gpus_, s->ids, today_);
    if (std::isfinite(total_bytes) && total_bytes > 0 && total_bytes < 4e9) s->reader->expectBytes(static_cast<size_t>(total_bytes));
    stream_ = std::move(s);
    return std::string("{\"ok\":true}");
  });
}

char* Engine::catalogBuffer(size_t bytes) {
  if (!stream_) return nullptr;
  try {
    if (stream_->buffer.size() < bytes) stream_->buffer.resize(bytes);
  } catch (...) {
    return nullptr;
  }
  return stream_->buffer.data();
}

bool Engine::catalogFeed(size_t bytes) {
  if (!stream_ || bytes > stream_->buffer.size()) return false;
  try {
    return stream_->reader->feed(stream_->buffer.data(), bytes);
  } catch (...) {
    return false;
  }
}

std::string Engine::catalogEnd() {
  return guarded([&] {
    Issues issues;
    if (!stream_) {
      issues.push_back({ErrorCode::kNotFound, "", "no catalog is being read: call catalogBegin first"});
      return errorResult(issues);
    }
    std::unique_ptr<Stream> s = std::move(stream_);
    Catalog fresh;
    if (!s->reader->finish(fresh, issues)) {
      issues.push_back({ErrorCode::kJsonSyntax, "", "the catalog text is not well formed; read it whole for the position"});
      std::string r = errorResult(issues);
      return r.substr(0, r.size() - 1) + ",\"retry_whole_text\":true}";
    }
    return applyCatalog(fresh, issues, s->replace, s->dry_run);
  });
}

std::string Engine::loadCatalog(const std::string& text) { return catalogOp(text, true, false); }
std::string Engine::addCatalog(const std::string& text) { return catalogOp(text, false, false); }

std::string Engine::validate(const std::string& text) {
  return guarded([&] {
    Issues issues;
    json doc;
    if (!parseJsonText(text, doc, issues, "document")) return errorResult(issues);
    if (doc.is_object() && doc.contains("gpus")) {
      GpuDatabase db;
      issues = db.load(text);
      if (hasErrors(issues)) return errorResult(issues);
      return dumpJson({{"ok", true}, {"kind", "gpus"}, {"count", db.all().size()}, {"issues", issuesToJson(issues)}});
    }
    if (doc.is_object() && doc.contains("presets")) {
      Engine scratch;
      return scratch.loadPresets(text);
    }
    std::string r = catalogOp(text, true, true);
    return r;
  });
}

std::string Engine::loadPresets(const std::string& text) {
  return guarded([&] {
    Issues issues;
    json doc;
    if (!parseJsonText(text, doc, issues, "presets")) return errorResult(issues);
    ObjectReader root(doc, "", issues);
    const json* list = root.ok() ? root.get("presets") : nullptr;
    if (root.ok() && (!list || !list->is_array())) root.error("presets", ErrorCode::kMissingField, "must be an array of presets");
    if (list && list->is_array()) {
      for (size_t i = 0; i < list->size(); ++i) {
        const std::string path = "/presets/" + std::to_string(i);
        ObjectReader r((*list)[i], path, issues);
        if (!r.ok()) continue;
        r.string("id", true);
        Workload w;
        if (const json* wj = r.get("workload")) parseWorkload(*wj, r.childPath("workload"), w, issues);
        else r.error("workload", ErrorCode::kMissingField, "is required");
      }
    }
    if (hasErrors(issues)) return errorResult(issues);
    presets_ = *list;
    return dumpJson({{"ok", true}, {"count", presets_.size()}});
  });
}

bool Engine::resolveWorkload(const json& req, Workload& w, Issues& issues) const {
  ObjectReader r(req, "", issues);
  if (!r.ok()) return false;
  bool ok = true;
  if (auto preset = r.string("preset", false)) {
    const json* found = nullptr;
    for (const auto& p : presets_)
      if (p.value("id", "") == *preset) found = &p;
    if (!found) {
      r.error("preset", ErrorCode::kUnknownId, "unknown preset \"" + *preset + "\"");
      return false;
    }
    json merged = (*found)["workload"];
    // Workload fields given beside a preset override it.
    if (const json* wj = r.get("workload"))
      if (wj->is_object())
        for (auto it = wj->begin(); it != wj->end(); ++it) merged[it.key()] = it.value();
    ok = parseWorkload(merged, "/workload", w, issues);
    if (w.name.empty()) w.name = *preset;
  } else if (const json* wj = r.get("workload")) {
    ok = parseWorkload(*wj, "/workload", w, issues);
  } else {
    r.error("workload", ErrorCode::kMissingField, "give a preset id or a workload");
    return false;
  }
  if (auto p = r.string("precision", false)) {
    if (!parsePrecision(*p, w.precision) || w.precision == Precision::kInt8 || w.precision == Precision::kFp4) {
      r.error("precision", ErrorCode::kInvalidValue, "must be fp32, tf32, fp16, bf16 or fp8");
      ok = false;
    }
  }
  return ok && !hasErrors(issues);
}

static json memoryJson(const MemoryBreakdown& m) {
  return {{"weights_gb", finiteOr(m.weights_gb)},         {"gradients_gb", finiteOr(m.gradients_gb)},
          {"optimizer_gb", finiteOr(m.optimizer_gb)},     {"activations_gb", finiteOr(m.activations_gb)},
          {"overhead_gb", finiteOr(m.overhead_gb)},       {"required_gb_per_gpu", finiteOr(m.required_gb)},
          {"available_gb_per_gpu", finiteOr(m.available_gb)}, {"fits", m.fits},
          {"sharding", m.sharding.describe()},            {"zero_stage", m.sharding.zero_stage},
          {"tensor_parallel", m.sharding.tensor_parallel}, {"pipeline_parallel", m.sharding.pipeline_parallel}};
}

static json throughputJson(const Throughput& t) {
  return {{"samples_per_s", finiteOr(t.samples_per_s)},
          {"tokens_per_s", finiteOr(t.tokens_per_s)},
          {"effective_tflops_per_gpu", finiteOr(t.effective_tflops_per_gpu)},
          {"single_gpu_tflops", finiteOr(t.single_gpu_tflops)},
          {"peak_tflops_per_gpu", finiteOr(t.peak_tflops_per_gpu)},
          {"scaling_efficiency", finiteOr(t.scaling_efficiency)},
          {"comm_exposed_fraction", finiteOr(t.comm_exposed_fraction)},
          {"bubble_fraction", finiteOr(t.bubble_fraction)},
          {"bound", t.bound}};
}

bool readConstantsField(const json& req, ModelConstants& k, Issues& issues) {
  if (req.is_object() && req.contains("constants")) return parseConstants(req["constants"], "/constants", k, issues);
  return true;
}

const GpuSpec* Engine::gpuField(ObjectReader& r) const {
  const std::string id = r.string("gpu", true).value_or("");
  const GpuSpec* g = id.empty() ? nullptr : gpus_.find(id);
  // An empty id is an unknown id too (it used to pass as "no GPU" and was dereferenced).
  if (!g && r.get("gpu") && r.get("gpu")->is_string()) r.error("gpu", ErrorCode::kUnknownId, "unknown GPU id \"" + id + "\"");
  return g;
}

std::string Engine::estimate(const std::string& text) {
  return guarded([&] {
    Issues issues;
    json req;
    if (!parseJsonText(text, req, issues, "request")) return errorResult(issues);
    Workload w;
    if (!resolveWorkload(req, w, issues)) return errorResult(issues);
    ObjectReader r(req, "", issues);
    ModelConstants k;
    readConstantsField(req, k, issues);
    const GpuSpec* g = gpuField(r);
    int count = static_cast<int>(r.integer("count", false, 1, 1 << 20).value_or(1));
    int per_node = static_cast<int>(r.integer("gpus_per_node", false, 1, 1024).value_or(std::min(count, 8)));
    Cluster c;
    c.gpu = g;
    c.gpus_per_node = std::min(per_node, count);
    c.nodes = (count + c.gpus_per_node - 1) / c.gpus_per_node;
    // Defaults for a bare GPU type: SXM parts sit on NVSwitch/NVLink boards, PCIe parts on PCIe;
    // multi-node clusters get one 200 Gb/s RDMA NIC per GPU, as DGX A100/H100 nodes have (NVIDIA DGX user guides).
    c.interconnect = r.string("interconnect", false).value_or(g && g->nvlink_gbs > 0 && g->form_factor.find("PCIe") == std::string::npos ? "nvswitch" : "pcie");
    c.network_gbps = r.number("network_gbps", false, 0, false, 1e6).value_or(200.0 * c.gpus_per_node);
    c.rdma = r.boolean("rdma", false).value_or(true);
    if (hasErrors(issues)) return errorResult(issues);
    ClusterPlan plan = planCluster(w, c, k);
    const MemoryBreakdown& m = plan.memory;
    const Throughput& t = plan.throughput;
    // The smallest GPU count (whole nodes past one node) on which some sharding fits.
    int min_gpus = 0;
    for (int n = 1; n <= 65536 && min_gpus == 0; n = n < c.gpus_per_node ? n * 2 : n + c.gpus_per_node) {
      Cluster probe = c;
      probe.gpus_per_node = std::min(n, c.gpus_per_node);
      probe.nodes = (n + probe.gpus_per_node - 1) / probe.gpus_per_node;
      if (fitsWithSomeSharding(w, probe, k)) min_gpus = probe.totalGpus();
      if (n >= c.gpus_per_node && n > 4096 * 8) break;
    }
    json warnings = json::array();
    if (!m.fits) warnings.push_back("does not fit in GPU memory even with the most aggressive sharding tried");
    if (!t.supported) warnings.push_back("the GPU cannot run this precision");
    Precision used = trainingPrecision(w, *g);
    if (used != w.precision)
      warnings.push_back(std::string(precisionName(w.precision)) + " is not supported by the " + g->name + "; using " + precisionName(used));
    if (c.totalGpus() != count)
      warnings.push_back("GPU count rounded up to whole nodes of " + std::to_string(c.gpus_per_node));
    json out = {{"ok", true},
                {"workload", w.name},
                {"gpu", g->id},
                {"gpu_count", c.totalGpus()},
                {"nodes", c.nodes},
                {"precision", precisionName(used)},
                {"total_flops", finiteOr(w.totalFlops())},
                {"time_hours", finiteOr(t.time_hours)},
                {"time_hours_low", finiteOr(t.time_hours_low)},
                {"time_hours_high", finiteOr(t.time_hours_high)},
                {"throughput", throughputJson(t)},
                {"memory", memoryJson(m)},
                {"min_gpus_to_fit", min_gpus},
                {"warnings", warnings}};
    return dumpJson(out);
  });
}

static void writeMemory(JsonWriter& j, const MemoryBreakdown& m) {
  j.beginObject()
      .field("weights_gb", m.weights_gb).field("gradients_gb", m.gradients_gb).field("optimizer_gb", m.optimizer_gb)
      .field("activations_gb", m.activations_gb).field("overhead_gb", m.overhead_gb)
      .field("required_gb_per_gpu", m.required_gb).field("available_gb_per_gpu", m.available_gb).field("fits", m.fits)
      .field("sharding", m.sharding.describe()).field("zero_stage", m.sharding.zero_stage)
      .field("tensor_parallel", m.sharding.tensor_parallel).field("pipeline_parallel", m.sharding.pipeline_parallel)
      .endObject();
}

static void writeThroughput(JsonWriter& j, const Throughput& t) {
  j.beginObject()
      .field("samples_per_s", t.samples_per_s).field("tokens_per_s", t.tokens_per_s)
      .field("effective_tflops_per_gpu", t.effective_tflops_per_gpu).field("single_gpu_tflops", t.single_gpu_tflops)
      .field("peak_tflops_per_gpu", t.peak_tflops_per_gpu).field("scaling_efficiency", t.scaling_efficiency)
      .field("comm_exposed_fraction", t.comm_exposed_fraction).field("bubble_fraction", t.bubble_fraction)
      .field("bound", t.bound)
      .endObject();
}

// The throughput and memory objects of one hardware evaluation, written once per ranking: the kept results
// share few evaluations (the same hardware sold in many regions).
using EvaluationText = std::unordered_map<const Evaluation*, std::pair<std::string, std::string>>;

// One ranked result, written straight to text (this is the hot output path of the page).
static void writeRankResult(JsonWriter& j, const RankResult& r, const Ranking& ranking, const Workload& w, const RankOptions& opt,
                            EvaluationText& evaluation_text) {
  const Offer& o = *r.offer;
  const Throughput& t = r.throughput();
  j.beginObject()
      .field("id", o.id).field("instance", o.instance_type).field("provider", o.provider).field("region", o.region)
      .field("gpu", o.gpu_id).field("gpu_name", o.gpu->name).field("gpu_count", o.gpu_count).field("nodes", r.nodes())
      .field("total_gpus", r.nodes() * o.gpu_count).field("pricing", pricingModelName(r.model)).field("fits", r.fits)
      .field("example", o.example).field("time_hours", r.cost.wall_hours).field("time_hours_low", t.time_hours_low)
      .field("time_hours_high", t.time_hours_high).field("compute_hours", t.time_hours).field("cost_usd", r.cost.cost_usd)
      .field("usd_per_hour", r.usd_per_hour).field("usd_per_tflops_day", r.usd_per_tflops_day)
      .field("usd_per_tflops_day_at_precision", r.usd_per_tflops_day_at_precision)
      .field("vendor_usd_per_tflops_day", r.vendor_usd_per_tflops_day).field("score", r.score);
  j.key("scores").beginObject().field("unit_cost", r.unit_score).field("task", r.task_score).field("service", r.service_score).endObject();
  j.field("pareto", r.pareto);
  auto it = evaluation_text.find(r.eval);
  if (it == evaluation_text.end()) {
    std::string tt, mt;
    {
      JsonWriter tj(tt), mj(mt);
      writeThroughput(tj, t);
      writeMemory(mj, r.memory());
    }
    it = evaluation_text.emplace(r.eval, std::make_pair(std::move(tt), std::move(mt))).first;
  }
  j.key("throughput").raw(it->second.first);
  j.key("memory").raw(it->second.second);
  j.key("spot").beginObject()
      .field("expected_interruptions", r.cost.expected_interruptions)
      .field("checkpoint_interval_hours", r.cost.checkpoint_interval_hours)
      .field("p_finish_by_deadline", r.cost.p_finish_by_deadline).field("feasible", r.cost.feasible)
      .endObject();
  j.key("reserved").beginObject()
      .field("commitment_usd", r.cost.commitment_usd).field("break_even_utilisation", r.cost.break_even_utilisation)
      .endObject();
  j.field("billed_hours", r.cost.billed_hours).field("as_of", r.price->as_of).field("source", r.price->source)
      .field("stale", r.stale).field("reasons", resultReasons(r, ranking)).field("warnings", resultWarnings(r, w, opt));
  j.endObject();
}

static std::vector<std::string> stringList(ObjectReader& r, const std::string& key, Issues& issues) {
  std::vector<std::string> out;
  const json* v = r.get(key);
  if (!v || v->is_null()) return out;
  if (v->is_string()) {
    out.push_back(v->get<std::string>());
    return out;
  }
  if (!v->is_array()) {
    r.error(key, ErrorCode::kInvalidValue, "must be a string or an array of strings");
    return out;
  }
  for (size_t i = 0; i < v->size(); ++i) {
    if ((*v)[i].is_string()) out.push_back((*v)[i].get<std::string>());
    else issues.push_back({ErrorCode::kInvalidValue, r.childPath(key) + "/" + std::to_string(i), "must be a string"});
  }
  return out;
}

void readSpotField(const json& req, SpotOptions& s, Issues& issues) {
  if (!req.is_object() || !req.contains("spot")) return;
  ObjectReader r(req["spot"], "/spot", issues);
  if (!r.ok()) return;
  s.interruptions_per_node_hour = r.number("interruptions_per_node_hour", false, 0, false, 10).value_or(s.interruptions_per_node_hour);
  s.checkpoint_interval_hours = r.number("checkpoint_interval_hours", false, 0, false, 1e4).value_or(s.checkpoint_interval_hours);
  s.checkpoint_write_hours = r.number("checkpoint_write_hours", false, 0, false, 100).value_or(s.checkpoint_write_hours);
  s.restart_hours = r.number("restart_hours", false, 0, false, 100).value_or(s.restart_hours);
  s.deadline_hours = r.number("deadline_hours", false, 0, false, 1e7).value_or(s.deadline_hours);
}

std::string Engine::rank(const std::string& text) {
  return guarded([&] {
    Issues issues;
    json req;
    if (!parseJsonText(text, req, issues, "request")) return errorResult(issues);
    Workload w;
    if (!resolveWorkload(req, w, issues)) return errorResult(issues);
    RankOptions opt;
    opt.today = today_;
    ObjectReader r(req, "", issues);
    readConstantsField(req, opt.constants, issues);
    readSpotField(req, opt.spot, issues);
    std::string pricing = r.string("pricing", false).value_or("all");
    if (pricing != "all") {
      PricingModel m;
      if (parsePricingModel(pricing, m)) opt.filters.models.push_back(m);
      else r.error("pricing", ErrorCode::kInvalidValue, "must be all, on_demand, reserved, spot, tiered or monthly");
    }
    if (const json* wj = r.get("weights")) {
      ObjectReader wr(*wj, "/weights", issues);
      if (wr.ok()) {
        opt.weights.unit_cost = wr.number("unit_cost", false, 0, false, 100).value_or(opt.weights.unit_cost);
        opt.weights.task = wr.number("task", false, 0, false, 100).value_or(opt.weights.task);
        opt.weights.service = wr.number("service", false, 0, false, 100).value_or(opt.weights.service);
      }
    }
    if (const json* fj = r.get("filters")) {
      ObjectReader fr(*fj, "/filters", issues);
      if (fr.ok()) {
        opt.filters.providers = stringList(fr, "providers", issues);
        opt.filters.regions = stringList(fr, "regions", issues);
        opt.filters.gpus = stringList(fr, "gpus", issues);
        for (const auto& m : stringList(fr, "pricing", issues)) {
          PricingModel pm;
          if (parsePricingModel(m, pm)) opt.filters.models.push_back(pm);
          else fr.error("pricing", ErrorCode::kInvalidValue, "unknown pricing model \"" + m + "\"");
        }
        opt.filters.fits_only = fr.boolean("fits_only", false).value_or(false);
        opt.filters.budget_usd = fr.number("budget_usd", false, 0, false, 1e15).value_or(0);
        opt.filters.deadline_hours = fr.number("deadline_hours", false, 0, false, 1e7).value_or(0);
        opt.filters.include_examples = fr.boolean("include_examples", false).value_or(true);
      }
    }
    opt.max_nodes = static_cast<int>(r.integer("max_nodes", false, 1, 4096).value_or(opt.max_nodes));
    opt.free_trial_hours = r.number("free_trial_hours", false, 0, false, 1e5).value_or(-1);
    long long limit = r.integer("limit", false, 0, 10000000).value_or(0);
    if (hasErrors(issues)) return errorResult(issues);
    opt.limit = static_cast<size_t>(limit);
    Ranking ranking = rankOffers(w, catalog_, opt);
    std::string text;
    text.reserve(1024 + ranking.results.size() * 2048);
    JsonWriter j(text);
    j.beginObject().field("ok", true);
    j.key("workload").beginObject()
        .field("name", w.name).field("kind", workloadKindName(w.kind)).field("mode", modeName(w.mode))
        .field("precision", precisionName(w.precision)).field("total_flops", w.totalFlops()).field("params", w.params)
        .endObject();
    j.field("evaluated_offers", ranking.evaluated).field("result_count", ranking.result_count)
        .field("fitting_count", ranking.fitting_count);
    j.key("results").beginArray();
    EvaluationText evaluation_text;
    for (const auto& rr : ranking.results) writeRankResult(j, rr, ranking, w, opt, evaluation_text);
    j.endArray().endObject();
    return text;
  });
}

std::string Engine::cost(const std::string& text) {
  return guarded([&] {
    Issues issues;
    json req;
    if (!parseJsonText(text, req, issues, "request")) return errorResult(issues);
    ObjectReader r(req, "", issues);
    if (!r.ok()) return errorResult(issues);
    std::string id = r.string("instance", true).value_or("");
    double hours = r.number("hours", true, 0, false, 1e7).value_or(0);
    int nodes = static_cast<int>(r.integer("nodes", false, 1, 4096).value_or(1));
    std::string pricing = r.string("pricing", false).value_or("on_demand");
    PricingModel m = PricingModel::kOnDemand;
    if (!parsePricingModel(pricing, m)) r.error("pricing", ErrorCode::kInvalidValue, "must be on_demand, reserved, spot, tiered or monthly");
    SpotOptions spot;
    readSpotField(req, spot, issues);
    if (hasErrors(issues)) return errorResult(issues);
    // Accept our offer id, or the provider's instance type when it is unambiguous.
    const Offer* found = nullptr;
    int matches = 0;
    for (const auto& o : catalog_.offers) {
      if (o.id == id) { found = &o; matches = 1; break; }
      if (o.instance_type == id) { if (!found) found = &o; ++matches; }
    }
    if (!found) {
      r.error("instance", ErrorCode::kUnknownId, "unknown instance \"" + id + "\"");
      return errorResult(issues);
    }
    const Price* p = found->price(m);
    if (!p) {
      r.error("pricing", ErrorCode::kNotFound, "instance \"" + found->id + "\" has no " + pricing + " price");
      return errorResult(issues);
    }
    Price priced = *p;
    if (auto free = r.number("free_trial_hours", false, 0, false, 1e5)) priced.free_hours = *free;
    CostResult c = priceJob(*found, priced, hours, nodes, spot);
    std::string note = c.note;
    if (m == PricingModel::kReserved) note = "amortised over a " + std::to_string(p->term_months) + "-month term";
    if (m == PricingModel::kMonthly) note = std::to_string(static_cast<int>(c.billed_hours / 730 + 0.5)) + " month(s) billed";
    json warnings = found->warnings;
    const std::string stale = staleWarning(*p, today_);
    if (!stale.empty()) warnings.push_back(stale);
    if (matches > 1) warnings.push_back("instance type \"" + id + "\" is sold in several regions; used " + found->id);
    json out = {{"ok", true},
                {"instance", found->instance_type},
                {"id", found->id},
                {"provider", found->provider},
                {"pricing", pricingModelName(m)},
                {"hours", hours},
                {"nodes", nodes},
                {"billed_hours", finiteOr(c.billed_hours)},
                {"wall_hours", finiteOr(c.wall_hours)},
                {"cost_usd", finiteOr(c.cost_usd)},
                {"usd_per_hour", finiteOr(p->headlineUsdPerHour())},
                {"usd_per_tflops_day", finiteOr(usdPerTflopsDay(p->headlineUsdPerHour(), found->gpu_count,
                                                                found->gpu ? found->gpu->peak(Precision::kFp16) : 0))},
                {"as_of", p->as_of},
                {"source", p->source},
                {"note", note},
                {"warnings", warnings}};
    return dumpJson(out);
  });
}

std::string Engine::importSkypilot(const std::string& csv_text, const std::string& options_json) {
  return guarded([&] {
    Issues issues;
    SkypilotOptions opt;
    if (!options_json.empty()) {
      json o;
      if (!parseJsonText(options_json, o, issues, "options")) return errorResult(issues);
      ObjectReader r(o, "", issues);
      opt.provider = r.string("provider", false).value_or("");
      opt.as_of = r.string("as_of", false).value_or(today_);
      opt.source = r.string("source", false).value_or("SkyPilot catalog vms.csv");
    } else {
      opt.as_of = today_;
    }
    if (opt.as_of.empty()) opt.as_of = "1970-01-01";
    SkypilotImport imp = importSkypilotCsv(csv_text, gpus_, opt);
    json out = {{"ok", imp.ok}, {"catalog", imp.catalog}, {"issues", issuesToJson(imp.issues)},
                {"rows", imp.rows}, {"skipped_rows", imp.skipped}, {"offers", imp.catalog["instances"].size()}};
    if (!imp.ok) {
      Issues errs;
      for (const auto& i : imp.issues)
        if (!i.warning) errs.push_back(i);
      if (!errs.empty()) out["error"] = {{"code", errorCodeName(errs[0].code)}, {"path", errs[0].path}, {"message", formatIssue(errs[0])}};
    }
    return dumpJson(out);
  });
}

std::string Engine::advise(const std::string& t) { return guarded([&] { return adviseImpl(t); }); }
std::string Engine::plan(const std::string& t) { return guarded([&] { return planImpl(t); }); }
std::string Engine::mig(const std::string& t) { return guarded([&] { return migImpl(t); }); }
std::string Engine::levers(const std::string& t) { return guarded([&] { return leversImpl(t); }); }
std::string Engine::compare(const std::string& t) { return guarded([&] { return compareImpl(t); }); }
std::string Engine::energy(const std::string& t) { return guarded([&] { return energyImpl(t); }); }
std::string Engine::tco(const std::string& t) { return guarded([&] { return tcoImpl(t); }); }

std::string Engine::defaults() const {
  return guarded([&] {
    SpotOptions s;
    Weights w;
    RankOptions r;
    // The names each request field takes, so that the page lists them from here. A workload accepts the
    // training precisions only (not fp4 or int8); the energy tool's cooling is air or liquid.
    json names = {{"pricing_models", json::array()}, {"precisions", json::array()}, {"stages", json::array()}};
    for (int m = 0; m < kPricingModelCount; ++m) names["pricing_models"].push_back(pricingModelName(static_cast<PricingModel>(m)));
    for (Precision p : {Precision::kFp32, Precision::kTf32, Precision::kFp16, Precision::kBf16, Precision::kFp8}) names["precisions"].push_back(precisionName(p));
    names["workload_kinds"] = {workloadKindName(WorkloadKind::kTransformer), workloadKindName(WorkloadKind::kCnn), workloadKindName(WorkloadKind::kCustom)};
    names["modes"] = {modeName(Mode::kPretrain), modeName(Mode::kFinetune), modeName(Mode::kLora), modeName(Mode::kInference)};
    for (Stage st : {Stage::kExploration, Stage::kTuning, Stage::kProduction}) names["stages"].push_back(stageName(st));
    names["cooling"] = {"air", "liquid"};
    return dumpJson({{"ok", true},
                     {"constants", constantsToJson(ModelConstants())},
                     {"spot", {{"interruptions_per_node_hour", s.interruptions_per_node_hour},
                               {"checkpoint_interval_hours", s.checkpoint_interval_hours},
                               {"checkpoint_write_hours", s.checkpoint_write_hours},
                               {"restart_hours", s.restart_hours}}},
                     {"weights", {{"unit_cost", w.unit_cost}, {"task", w.task}, {"service", w.service}}},
                     {"max_nodes", r.max_nodes},
                     {"decisions", {{"pue_air_cooled", kPueAirCooled},
                                    {"pue_liquid_cooled", kPueLiquidCooled},
                                    {"electricity_usd_per_kwh", kElectricityUsdPerKwh},
                                    {"grid_kg_co2_per_kwh", kGridKgCo2PerKwh},
                                    {"training_power_share_of_tdp", kTrainingPowerShareOfTdp},
                                    {"amortisation_years", kAmortisationYears},
                                    {"median_spot_discount", kMedianSpotDiscount},
                                    {"sources", "core/src/tools/decisions.hpp"}}},
                     {"stale_after_days", kStaleAfterDays},
                     {"hours_per_month", kHoursPerMonth},
                     {"planner_example", {{"instance", kArticlePlanInstance}, {"gpus", kArticlePlanGpus},
                                          {"monthly_gpu_hours", kArticlePlanGpus * kHoursPerMonth},
                                          {"interruptible_fraction", kArticleSpotShare},
                                          {"target_completion_rate", kArticleCompletionRate},
                                          {"task_hours", kArticlePlanTaskHours}}},
                     {"names", names}});
  });
}

std::string Engine::presets() const {
  return guarded([&] { return dumpJson({{"ok", true}, {"presets", presets_}}); });
}

std::string Engine::gpus() const {
  return guarded([&] {
    json a = json::array();
    for (const auto& g : gpus_.all()) {
      json t = json::object();
      for (int p = 0; p < kPrecisionCount; ++p)
        t[precisionName(static_cast<Precision>(p))] = g.tflops[p] > 0 ? json(g.tflops[p]) : json(nullptr);
      json mig = json::array();
      for (const auto& m : g.mig_profiles)
        mig.push_back({{"name", m.name}, {"memory_gb", m.memory_gb}, {"compute_slices", m.compute_slices}, {"max_count", m.max_count}});
      a.push_back({{"id", g.id}, {"name", g.name}, {"architecture", g.architecture}, {"memory_gb", g.memory_gb},
                   {"memory_type", g.memory_type}, {"memory_bandwidth_gbs", g.memory_bandwidth_gbs}, {"tflops", t},
                   {"nvlink_gbs", g.nvlink_gbs}, {"tdp_w", g.tdp_w}, {"mig_profiles", mig}, {"aliases", g.aliases}});
    }
    return dumpJson({{"ok", true}, {"gpus", a}});
  });
}

std::string Engine::catalogSummary() const {
  return guarded([&] {
    json a = json::array();
    for (const auto& o : catalog_.offers) {
      json prices = json::array();
      for (const auto& p : o.prices)
        prices.push_back({{"model", pricingModelName(p.model)}, {"usd_per_hour", p.headlineUsdPerHour()}, {"as_of", p.as_of}, {"source", p.source}});
      a.push_back({{"id", o.id}, {"provider", o.provider}, {"instance", o.instance_type}, {"gpu", o.gpu_id},
                   {"gpu_count", o.gpu_count}, {"region", o.region}, {"example", o.example}, {"prices", prices},
                   {"warnings", o.warnings}});
    }
    return dumpJson({{"ok", true}, {"offers", a}});
  });
}

}  // namespace gpuvalue
