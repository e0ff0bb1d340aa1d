// Which GPU of ours a SkyPilot row rents, from every hint the row carries: the instance type, the upstream cloud's
// id (Prime Intellect's UpstreamCloudId), the accelerator name, GpuInfo's name and memory, what another catalog file
// says of the same machine (SkypilotOptions::known_gpus) and what the file's other rows say. Form factor words:
// "PCIe", "pci" (CUDO's intel-ice-lake-a100-pci_*), "_PCIE_" say PCIe; "SXM", "HGX", "DGX" say SXM; "NVL" names the
// H100 NVL (a PCIe card; with 80 GB it is the H100 PCIe with NVLink bridges); "NVLink" alone says neither (PCIe cards
// are bridged in pairs, SXM boards linked by NVLink). Per-GPU memory: GpuInfo's SizeInMiB is per GPU in some files
// (AWS, CUDO) and the machine's total in others (Vast, Prime Intellect); the reading that fits a GPU of the named
// family wins, and when both fit, the reading the file's other multi-GPU rows need decides. When the hints
// disagree, or nothing of ours fits them, the row is left out and listed as ambiguous, never guessed.
#include <algorithm>
#include <cctype>
#include <cmath>

#include "import/skypilot_import.hpp"

namespace gpuvalue {
namespace skypilot {

namespace {

// Memory sizes within 4 GB or 5 % are the same part (GiB vs GB, reserved memory: 80 GB cards list 79.6 GiB, a
// B300 of our 270 GB lists 262 GiB). Parts of one family differ by far more (40/80, 16/32, 80/94 GB).
bool sameMemory(double a_gb, double b_gb) { return std::fabs(a_gb - b_gb) <= std::max(4.0, 0.05 * std::max(a_gb, b_gb)); }

std::vector<std::string> tokensOf(const std::string& text) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : text) {
    if (std::isalnum(static_cast<unsigned char>(c))) cur += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    else if (!cur.empty()) out.push_back(std::move(cur)), cur.clear();
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

// "a100-sxm4-40gb" -> "a100", "h200-sxm-141gb" -> "h200", "rtx-a6000" -> "rtx-a6000", "l40s" -> "l40": the id up to
// the end of its first run of digits. GPUs of one family share it and differ in form factor or memory.
std::string familyKey(const std::string& id) {
  std::string l = toLower(id);
  size_t i = 0;
  while (i < l.size() && !std::isdigit(static_cast<unsigned char>(l[i]))) ++i;
  while (i < l.size() && std::isdigit(static_cast<unsigned char>(l[i]))) ++i;
  return l.substr(0, i);
}

bool isPcie(const GpuSpec* g) { return contains(g->form_factor, "PCIe"); }

std::vector<const GpuSpec*> familyOf(const GpuDatabase& gpus, const GpuSpec* g) {
  std::vector<const GpuSpec*> out;
  const std::string key = familyKey(g->id);
  for (const auto& c : gpus.all())
    if (c.architecture == g->architecture && familyKey(c.id) == key) out.push_back(&c);
  return out;
}

bool memoryFits(const std::vector<const GpuSpec*>& family, double memory_gb) {
  for (const GpuSpec* c : family)
    if (sameMemory(c->memory_gb, memory_gb)) return true;
  return false;
}

// The GPU an accelerator name names, without reporting anything (for the file scan).
const GpuSpec* quietFind(const GpuDatabase& gpus, const std::string& accel) {
  if (const GpuSpec* g = gpus.find(accel)) return g;
  const size_t cut = accel.find('_');
  return cut != std::string::npos && cut > 0 ? gpus.find(accel.substr(0, cut)) : nullptr;
}

// "V100 32GB", "A100-80G": a digit followed by G.
bool statesMemory(const std::string& name) {
  const std::string l = toLower(name);
  for (size_t i = 1; i < l.size(); ++i)
    if (l[i] == 'g' && std::isdigit(static_cast<unsigned char>(l[i - 1]))) return true;
  return false;
}

// How per-GPU memory reads from SizeInMiB of a multi-GPU row: as it is, divided by the count, or either.
enum Reading { kNone = 0, kAsIs = 1, kDivided = 2 };

int readingsOf(const std::vector<const GpuSpec*>& family, double size_mib, int count) {
  int r = kNone;
  if (memoryFits(family, size_mib / 1024.0)) r |= kAsIs;
  if (count > 1 && memoryFits(family, size_mib / 1024.0 / count)) r |= kDivided;
  return r;
}

// The GPU another catalog file maps this machine to: by upstream id, instance type, or the instance type before a
// "__" suffix (Spheron: "n3-H100x8-NVLink__CANADA-1" is Hyperstack's n3-H100x8-NVLink).
const GpuSpec* knownGpu(const ImportState& s, const std::string& instance_type, const std::string& upstream) {
  if (!s.known_gpus) return nullptr;
  for (const std::string& key : {upstream, instance_type, instance_type.substr(0, instance_type.find("__"))}) {
    auto it = s.known_gpus->find(key);
    if (!key.empty() && it != s.known_gpus->end()) return s.gpus.find(it->second);
  }
  return nullptr;
}

struct RowHints {
  std::string pcie_from, sxm_from;  // the first name that says PCIe / SXM
  bool nvl = false;
};

void addHints(RowHints& h, const std::string& text) {
  const int bits = formBitsOf(text);
  if ((bits & kFormPcie) && h.pcie_from.empty()) h.pcie_from = text;
  if ((bits & kFormSxm) && h.sxm_from.empty()) h.sxm_from = text;
  if (bits & kFormNvl) h.nvl = true;
}

RowHints rowHints(const ImportState& s, const Row& r, const std::string& accel, const GpuInfoCell& info,
                  const std::string& instance_type, const GpuSpec* known) {
  RowHints h;
  for (const std::string& t : {instance_type, s.cell(r, "UpstreamCloudId"), accel, info.name}) addHints(h, t);
  if (known) addHints(h, isPcie(known) ? known->id + " (PCIe)" : known->id + " (SXM)");
  if (known && contains(known->id, "nvl")) h.nvl = true;
  return h;
}

// Rows that are siblings for the form-factor check: the same accelerator name and GPU count sold by the same cloud
// (Spheron's Provider column; the cloud before "__" in a Prime Intellect instance type; else the whole file).
std::string siblingKey(const ImportState& s, const Row& r, const std::string& accel, const std::string& count) {
  std::string scope = s.cell(r, "Provider");
  const std::string it = s.cell(r, "InstanceType");
  if (scope.empty() && it.find("__") != std::string::npos) scope = it.substr(0, it.find("__"));
  return accel + "|" + count + "|" + scope;
}

void ambiguous(ImportState& s, size_t i, const std::string& instance_type, const std::string& accel, Message why) {
  s.imp.ambiguous.push_back({s.lines[i], instance_type, accel, why.code()});
  s.skip(i, std::move(why));
}

// Per-GPU memory in GB from GpuInfo (0 when it gives none); false after reporting the row as ambiguous.
bool perGpuMemory(ImportState& s, size_t i, const std::string& accel, const GpuInfoCell& info, const std::string& it,
                  int count, const std::vector<const GpuSpec*>& family, double& memory_gb) {
  memory_gb = 0;
  if (info.size_mib < 1024) return true;  // none, or GB written as MiB (memoryGbOf)
  const int r = readingsOf(family, info.size_mib, count);
  const double as_is = info.size_mib / 1024.0, divided = as_is / std::max(count, 1);
  if (r == kAsIs || r == kDivided) {
    memory_gb = r == kAsIs ? as_is : divided;
    return true;
  }
  if (r == (kAsIs | kDivided) && s.memory_reading != kNone) {
    memory_gb = s.memory_reading == kAsIs ? as_is : divided;
    return true;
  }
  ambiguous(s, i, it, accel,
            r == kNone ? Message("import.ambiguous_memory").text("instance", excerpt(it)).text("accelerator", excerpt(accel)).num("value", as_is).num("gpu_count", count)
                       : Message("import.ambiguous_total").text("instance", excerpt(it)).text("accelerator", excerpt(accel)).num("value", as_is).num("gpu_count", count));
  return false;
}

}  // namespace

int formBitsOf(const std::string& text) {
  const std::string l = toLower(text);
  int bits = contains(l, "pcie") ? kFormPcie : 0;
  if (contains(l, "sxm")) bits |= kFormSxm;
  for (const std::string& t : tokensOf(text)) {
    if (t == "pci") bits |= kFormPcie;
    if (t == "hgx" || t == "dgx") bits |= kFormSxm;
    if (t == "nvl") bits |= kFormNvl;
  }
  return bits;
}

void scanRows(ImportState& s) {
  int only_as_is = 0, only_divided = 0;
  for (size_t i = 1; i < s.rows.size(); ++i) {
    const Row& r = s.rows[i];
    if (r.size() != s.rows[0].size()) continue;
    const std::string accel = s.cell(r, "AcceleratorName");
    const GpuSpec* g = accel.empty() ? nullptr : quietFind(s.gpus, accel);
    if (!g) continue;
    const GpuInfoCell info = readGpuInfo(s.cell(r, "GpuInfo"), s.info_cache);
    const std::string it = s.cell(r, "InstanceType");
    const RowHints h = rowHints(s, r, accel, info, it, knownGpu(s, it, s.cell(r, "UpstreamCloudId")));
    int& said = s.accel_forms[siblingKey(s, r, accel, s.cell(r, "AcceleratorCount"))];
    if (!h.pcie_from.empty() || h.nvl) said |= kFormPcie;
    if (!h.sxm_from.empty()) said |= kFormSxm;
    double count = 0;
    if (info.size_mib < 1024 || !toNumber(s.cell(r, "AcceleratorCount"), count) || count < 2 || count > 1024) continue;
    const int reading = readingsOf(familyOf(s.gpus, g), info.size_mib, static_cast<int>(count));
    only_as_is += reading == kAsIs;
    only_divided += reading == kDivided;
  }
  s.memory_reading = only_divided && !only_as_is ? kDivided : only_as_is && !only_divided ? kAsIs : kNone;
}

const GpuSpec* pickGpu(ImportState& s, size_t i, const GpuSpec* g, const std::string& accel, const GpuInfoCell& info,
                       const std::string& it, int count, double& memory_gb) {
  const Row& r = s.rows[i];
  const std::vector<const GpuSpec*> family = familyOf(s.gpus, g);
  if (!perGpuMemory(s, i, accel, info, it, count, family, memory_gb)) return nullptr;
  if (info.size_mib > 0 && info.size_mib < 1024) memory_gb = memoryGbOf(s, i, accel, info, memoryFits(family, info.size_mib));
  const GpuSpec* known = knownGpu(s, it, s.cell(r, "UpstreamCloudId"));
  if (known && familyKey(known->id) != familyKey(g->id)) known = nullptr;
  // A bare GPU name in GpuInfo that states its memory ("V100 32GB": Alibaba) or another file's mapping gives the
  // memory the file does not. A name without a size ("A100") names the family, not the memory.
  const GpuSpec* named = statesMemory(info.name) ? s.gpus.find(info.name) : nullptr;
  if (memory_gb <= 0 && named && familyKey(named->id) == familyKey(g->id)) memory_gb = named->memory_gb;
  if (memory_gb <= 0 && known) memory_gb = known->memory_gb;
  const RowHints h = rowHints(s, r, accel, info, it, known);
  const bool pcie = !h.pcie_from.empty() || h.nvl, sxm = !h.sxm_from.empty();
  if (pcie && sxm) {
    ambiguous(s, i, it, accel, Message("import.ambiguous_form").text("instance", excerpt(it))
                                   .text("pcie", excerpt(h.pcie_from.empty() ? "NVL" : h.pcie_from)).text("sxm", excerpt(h.sxm_from)));
    return nullptr;
  }
  std::vector<const GpuSpec*> fit;
  for (const GpuSpec* c : family) {
    if (memory_gb > 0 && !sameMemory(c->memory_gb, memory_gb)) continue;
    if ((pcie && !isPcie(c)) || (sxm && isPcie(c))) continue;
    fit.push_back(c);
  }
  bool both_forms = false;
  for (const GpuSpec* c : fit) both_forms = both_forms || isPcie(c) != isPcie(fit[0]);
  // Other rows of this accelerator name and count, of the same cloud, say which form they are, this one says
  // neither: it may be the other one (Massed Compute's A100-80GB beside its A100-sxm4-80GB).
  const int said = s.accel_forms[siblingKey(s, r, accel, s.cell(r, "AcceleratorCount"))];
  if (!pcie && !sxm && both_forms && said) {
    ambiguous(s, i, it, accel, Message("import.ambiguous_siblings").text("instance", excerpt(it)).text("accelerator", excerpt(accel))
                                   .text("form_factor", said == kFormPcie ? "PCIe" : said == kFormSxm ? "SXM" : "PCIe/SXM"));
    return nullptr;
  }
  if (fit.empty()) {
    ambiguous(s, i, it, accel, Message("import.ambiguous_variant").text("instance", excerpt(it)).text("gpu", g->id)
                                   .text("form_factor", pcie ? "PCIe" : sxm ? "SXM" : "").num("value", memory_gb));
    return nullptr;
  }
  for (const GpuSpec* c : fit)
    if (h.nvl && contains(c->id, "nvl")) return c;
  for (const GpuSpec* c : fit)
    if (c == g && !(h.nvl && fit.size() > 1)) return c;
  for (const GpuSpec* c : fit)
    if (isPcie(c) == (isPcie(g) || h.nvl) && !contains(c->id, "nvl")) return c;
  return fit[0];
}

}  // namespace skypilot
}  // namespace gpuvalue
