// GCP lists machines and GPUs on separate rows (InstanceType empty on GPU rows). Offers are composed zone by zone as
// host row + accelerator row, paired the way SkyPilot pairs them.
#include <algorithm>

#include "import/skypilot_import.hpp"

namespace gpuvalue {
namespace skypilot {
namespace {

// GCP machine types whose GPUs are part of the machine, paired with the accelerator row that prices them, exactly
// as SkyPilot pairs them (skypilot-org/skypilot sky/catalog/gcp_catalog.py, _ACC_INSTANCE_TYPE_DICTS).
struct BuiltInGpus {
  const char* accelerator;
  int count;
  const char* machine;
};
const BuiltInGpus kGcpBuiltIn[] = {
    {"A100", 1, "a2-highgpu-1g"},       {"A100", 2, "a2-highgpu-2g"},       {"A100", 4, "a2-highgpu-4g"},
    {"A100", 8, "a2-highgpu-8g"},       {"A100", 16, "a2-megagpu-16g"},     {"A100-80GB", 1, "a2-ultragpu-1g"},
    {"A100-80GB", 2, "a2-ultragpu-2g"}, {"A100-80GB", 4, "a2-ultragpu-4g"}, {"A100-80GB", 8, "a2-ultragpu-8g"},
    {"L4", 1, "g2-standard-4"},         {"L4", 1, "g2-standard-8"},         {"L4", 1, "g2-standard-12"},
    {"L4", 1, "g2-standard-16"},        {"L4", 1, "g2-standard-32"},        {"L4", 2, "g2-standard-24"},
    {"L4", 4, "g2-standard-48"},        {"L4", 8, "g2-standard-96"},        {"H100", 1, "a3-highgpu-1g"},
    {"H100", 2, "a3-highgpu-2g"},       {"H100", 4, "a3-highgpu-4g"},       {"H100", 8, "a3-highgpu-8g"},
    {"H100-MEGA", 8, "a3-megagpu-8g"},  {"H200", 8, "a3-ultragpu-8g"},      {"B200", 8, "a4-highgpu-8g"},
};

// GCP machine families that only exist with GPUs built in: a host row of one of these that no accelerator row
// prices is a GPU offer we cannot price, not a CPU machine.
bool isGcpGpuMachine(const std::string& it) {
  return startsWith(it, "a2-") || startsWith(it, "a3-") || startsWith(it, "a4-") || startsWith(it, "a4x-") ||
         startsWith(it, "g2-") || startsWith(it, "g4-");
}

// vCPUs SkyPilot asks of the N1 host for N attachable GPUs (gcp_catalog.py _NUM_ACC_TO_NUM_CPU, "based on" AWS
// p2/p3/g4dn); it also asks >= 4 GiB of memory per vCPU (_DEFAULT_GPU_MEMORY_CPU_RATIO) and takes the cheapest
// n1-standard/highmem/highcpu machine in the zone that has both.
int n1HostCpus(const std::string& accelerator, int count) {
  struct Row { const char* accelerator; int count; int cpus; };
  static const Row kRows[] = {
      {"K80", 1, 4},   {"K80", 2, 8},   {"K80", 4, 16},  {"K80", 8, 32},  {"K80", 16, 64}, {"V100", 1, 8},
      {"V100", 2, 16}, {"V100", 4, 32}, {"V100", 8, 64}, {"T4", 1, 4},    {"T4", 2, 8},    {"T4", 4, 48},
      {"P100", 1, 8},  {"P100", 2, 16}, {"P100", 4, 32}, {"P100", 8, 64}, {"", 1, 8},      {"", 2, 16},
      {"", 4, 32},     {"", 8, 64},     {"", 16, 128},
  };
  bool known = false;
  for (const auto& r : kRows) known = known || accelerator == r.accelerator;
  for (const auto& r : kRows)
    if ((known ? accelerator == r.accelerator : r.accelerator[0] == '\0') && r.count == count) return r.cpus;
  return 0;
}

// The host rows of the file by zone.
struct GcpHosts {
  std::map<std::string, const HostRow*> at;                  // machine|region|zone -> row
  std::map<std::string, std::vector<const HostRow*>> n1_at;  // region|zone -> n1 rows
};

// Why accelerator rows fed no offer, reported once all are read.
struct GcpMisses {
  std::map<std::string, std::vector<size_t>> no_host, zero_host;  // "1x T4" -> accelerator rows
  std::map<std::string, Message> host_wanted;                     // "1x T4" -> the warning: what host it needs
  std::map<std::string, std::vector<size_t>> zero_host_rows;      // machine -> host rows priced 0
  std::set<std::string> paired_machines;
};

// A host row an accelerator row is added to, and the offer's instance type label.
struct Pick {
  const HostRow* host;
  std::string label;
};

GcpHosts indexHosts(const std::vector<HostRow>& hosts) {
  GcpHosts index;
  for (const auto& h : hosts) {
    index.at.emplace(h.instance_type + "|" + h.region + "|" + h.zone, &h);
    if (startsWith(h.instance_type, "n1-standard-") || startsWith(h.instance_type, "n1-highmem-") ||
        startsWith(h.instance_type, "n1-highcpu-"))
      index.n1_at[h.region + "|" + h.zone].push_back(&h);
  }
  return index;
}

// The machines with these GPUs built in that have a priced row in the accelerator row's zone. Returns whether
// SkyPilot builds this accelerator into machines at all; zero_priced_host says a pairing host row had no price.
bool builtInPicks(const AcceleratorRow& a, const GcpHosts& hosts, GcpMisses& misses, std::vector<Pick>& picks,
                  bool& zero_priced_host) {
  bool built_in = false;
  for (const auto& b : kGcpBuiltIn) {
    if (a.name != b.accelerator) continue;
    built_in = true;
    misses.paired_machines.insert(b.machine);
    if (b.count != a.count) continue;
    auto h = hosts.at.find(std::string(b.machine) + "|" + a.region + "|" + a.zone);
    if (h == hosts.at.end()) continue;
    if (!h->second->has_price) {
      misses.zero_host_rows[b.machine].push_back(h->second->row);
      zero_priced_host = true;
      continue;
    }
    picks.push_back({h->second, b.machine});
  }
  return built_in;
}

// SkyPilot's default N1 host for attachable GPUs: the cheapest n1 machine of the zone with enough vCPUs and memory.
const HostRow* n1Host(const AcceleratorRow& a, const GcpHosts& hosts) {
  const int cpus = n1HostCpus(a.name, a.count);
  auto zone = hosts.n1_at.find(a.region + "|" + a.zone);
  if (cpus <= 0 || zone == hosts.n1_at.end()) return nullptr;
  const HostRow* best = nullptr;
  for (const HostRow* h : zone->second)
    if (h->has_price && h->vcpus >= cpus && h->memory_gib >= 4.0 * cpus && (!best || h->price < best->price)) best = h;
  return best;
}

// What host an accelerator row without one needed, for the warning.
// The warning for accelerator rows without a host row in their zone, naming the host they need.
Message hostWanted(const AcceleratorRow& a, bool built_in, const std::string& what) {
  if (built_in) {
    std::string ms;
    for (const auto& b : kGcpBuiltIn)
      if (a.name == b.accelerator && a.count == b.count) ms += (ms.empty() ? "" : ", ") + std::string(b.machine);
    if (ms.empty()) return Message("import.no_host_unpaired").text("accelerator", what);
    return Message("import.no_host_builtin").text("accelerator", what).text("machines", ms);
  }
  const int cpus = n1HostCpus(a.name, a.count);
  if (cpus <= 0) return Message("import.no_host_no_n1").text("accelerator", what);
  return Message("import.no_host_n1").text("accelerator", what).num("vcpu_count", cpus).num("ram_gib_value", 4.0 * cpus);
}

Group composedGroup(const AcceleratorRow& a, const Pick& pick, const GpuSpec* g, double memory_gb, bool built_in,
                    const std::string& what) {
  const HostRow* h = pick.host;
  Group grp;
  grp.instance_type = pick.label;
  grp.region = a.region;
  grp.gpu_id = g->id;
  grp.accel_name = a.name;
  grp.gpu_count = a.count;
  grp.vcpus = h->vcpus;
  grp.ram_gb = h->memory_gib * kGbPerGib;
  grp.memory_gb_per_gpu = memory_gb;
  grp.interconnect = interconnectOf(g, a.count);
  grp.first_line = std::min(h->line, a.line);
  grp.composed = true;
  if (built_in) {
    grp.notes = "GCP lists the " + h->instance_type + " machine and its " + what +
                " on separate rows; each zone's price is the machine row plus the accelerator row of the "
                "same zone, as SkyPilot adds them.";
  } else {
    const int cpus = n1HostCpus(a.name, a.count);
    grp.notes = "GCP prices an N1 machine and attached GPUs separately; the host is the cheapest "
                "n1-standard/highmem/highcpu machine in the zone with at least " +
                std::to_string(cpus) + " vCPUs and " + std::to_string(4 * cpus) + " GiB (SkyPilot's default host for " +
                what + "); each zone's price is that host row plus the " + "accelerator row of the same zone.";
  }
  return grp;
}

// Adds one zone's host + accelerator price to the offer.
void addZone(ImportState& s, Group& grp, const HostRow* h, const AcceleratorRow& a) {
  const double total = tidy(h->price + a.price);
  grp.prices.push_back(total);
  if (h->has_spot && a.has_spot) grp.spots.push_back(std::min(tidy(h->spot + a.spot), total));
  if (grp.cheapest_sum.empty() || total < grp.cheapest) {
    grp.cheapest = total;
    grp.cheapest_sum = a.zone + ": " + num(h->price) + " (line " + std::to_string(h->line) + ") + " + num(a.price) +
                       " (line " + std::to_string(a.line) + ") = " + num(total);
  }
  s.used[h->row] = 1;
  s.used[a.row] = 1;
}

// Adds one accelerator row to the offers of the hosts it pairs with, or records why it pairs with none.
void composeOne(ImportState& s, const AcceleratorRow& a, const GcpHosts& hosts, GcpMisses& misses) {
  double memory_gb = 0;
  const GpuSpec* g = mapGpu(s, a.row, a.name, a.info, "", a.count, memory_gb);
  if (!g) return;
  const std::string what = std::to_string(a.count) + "x " + a.name;
  std::vector<Pick> picks;
  bool zero_priced_host = false;
  const bool built_in = builtInPicks(a, hosts, misses, picks, zero_priced_host);
  if (!built_in) {
    if (const HostRow* best = n1Host(a, hosts)) picks.push_back({best, best->instance_type + " + " + what});
  }
  if (picks.empty() && zero_priced_host) {
    misses.zero_host[what].push_back(a.row);
    return;
  }
  if (picks.empty()) {
    misses.host_wanted[what] = hostWanted(a, built_in, what);
    misses.no_host[what].push_back(a.row);
    return;
  }
  for (const Pick& pick : picks) {
    Group& grp = s.group("compose|" + pick.label + "|" + a.region,
                         [&] { return composedGroup(a, pick, g, memory_gb, built_in, what); });
    addZone(s, grp, pick.host, a);
  }
}

void reportMisses(ImportState& s, GcpMisses& misses) {
  for (const auto& [machine, rs] : misses.zero_host_rows)
    s.warnLines(rs, Message("import.host_unpriced").text("machine", machine));
  for (const auto& [what, rs] : misses.zero_host)
    s.warnLines(rs, Message("import.host_zero_price").text("accelerator", what));
  for (const auto& [what, rs] : misses.no_host)
    s.warnLines(rs, misses.host_wanted[what]);
  // GPU machines (a2-, a3-, g2- ...) that no accelerator row prices, e.g. a3-edgegpu-8g.
  std::map<std::string, std::vector<size_t>> unpriced;
  for (const auto& h : s.hosts)
    if (!s.used[h.row] && !s.reported[h.row] && isGcpGpuMachine(h.instance_type)) unpriced[h.instance_type].push_back(h.row);
  for (const auto& [machine, rs] : unpriced)
    s.warnLines(rs, Message(misses.paired_machines.count(machine) ? "import.builtin_unpriced_zone" : "import.builtin_unpaired")
                        .text("machine", machine));
}

}  // namespace

void composeGcpOffers(ImportState& s) {
  if (s.accels.empty()) return;
  const GcpHosts hosts = indexHosts(s.hosts);
  GcpMisses misses;
  for (const auto& a : s.accels) composeOne(s, a, hosts, misses);
  reportMisses(s, misses);
}

}  // namespace skypilot
}  // namespace gpuvalue
