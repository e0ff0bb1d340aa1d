// The instance catalog (data/catalog/*.json): what clouds sell and at which prices.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "model/atom.hpp"
#include "io/json_reader.hpp"

#include "model/gpu_specs.hpp"
#include "io/issues.hpp"
#include "io/messages.hpp"

namespace gpuvalue {

enum class PricingModel { kOnDemand, kReserved, kSpot, kTiered, kMonthly, kServerless };
constexpr int kPricingModelCount = 6;
const char* pricingModelName(PricingModel m);
bool parsePricingModel(const std::string& s, PricingModel& out);

struct PriceTier {
  double up_to_hours = 0;  // 0 means "no upper bound" (the last tier)
  double usd_per_hour = 0;
};

// What few prices publish beyond a rate and a date (commitment terms, tiers, serverless worker terms, a claimed
// discount, an interruption rate, free-trial hours), kept out of line: a 100,000-offer catalog holds ~200,000
// prices, and inline these fields made each price 120 bytes in wasm instead of 40.
struct PriceTerms {
  double usd_per_month = 0;         // monthly model only
  int term_months = 0;              // reserved only
  Atom upfront;                     // reserved: none | partial | all
  double claimed_discount_pct = 0;  // what the vendor says the discount is (article GN8: 65)
  double interruption_per_hour = -1;  // spot: published interruption rate; <0 means use the default
  double free_hours = 0;            // on-demand: free-trial hours not billed (article §6: "typically 30 h of A100")
  std::vector<PriceTier> tiers;     // tiered only
  // Serverless only (usd_per_hour is then the published per-second price x 3600, per worker of the offer).
  double cold_start_s = -1;         // billed seconds to start a worker from zero; <0 = not published
  double min_request_s = 0;         // smallest billed duration of one request
  double idle_timeout_s = 0;        // a worker stays billed this long after its last request before it stops
  int max_concurrency = 0;          // most workers at once; 0 = not published
  bool operator==(const PriceTerms& o) const;
  bool operator!=(const PriceTerms& o) const { return !(*this == o); }
};
// The terms of a price that publishes none.
extern const PriceTerms kNoPriceTerms;

struct Price {
  PricingModel model = PricingModel::kOnDemand;
  long as_of_day = 0;               // as_of as days since 1970-01-01 (parsed once at load); 0 when unknown
  double usd_per_hour = 0;          // effective hourly rate (reserved: averaged over the term)
  Atom as_of;                       // YYYY-MM-DD the source published or fetched it; empty when unknown
  Atom read_on;                     // YYYY-MM-DD the price was read, when as_of is unknown
  Atom source;
  // The price's other terms (the defaults when it publishes none).
  const PriceTerms& terms() const { return terms_ ? *terms_ : kNoPriceTerms; }
  // The terms to change: the price's own copy (terms shared with other prices are copied first).
  PriceTerms& editTerms();
  // Takes `t` as the price's terms, shared with the prices that share `t` (none when `t` holds only defaults).
  void shareTerms(const std::shared_ptr<PriceTerms>& t) { terms_ = t && *t != kNoPriceTerms ? t : nullptr; }
  // Hourly rate used for $/TFLOPS·day (tiered: first tier; monthly: month / 730 h).
  double headlineUsdPerHour() const;

 private:
  std::shared_ptr<PriceTerms> terms_;
};

struct Claims {
  double gpu_memory_gb = 0;
  std::string tflops_precision;
  double tflops = 0;               // total for the instance, as the vendor states it
  double memory_bandwidth_gbs = 0;
  double nvlink_gbs = 0;
  std::string cpu;
  std::string cpu_memory_type;
  double cpu_memory_gb = 0;
  double resnet50_images_per_s = 0;
  std::vector<std::string> text;
};

struct Service {
  bool preinstalled_frameworks = false;
  double sla_pct = 0;          // 0 = not published
  double scaling_minutes = -1; // <0 = not published
  double queue_minutes = -1;
  bool operator==(const Service& o) const {
    return preinstalled_frameworks == o.preinstalled_frameworks && sla_pct == o.sla_pct &&
           scaling_minutes == o.scaling_minutes && queue_minutes == o.queue_minutes;
  }
};
// The service features of an offer that publishes none.
inline constexpr Service kNoService{};

// Fields in order of alignment, so an offer has no padding (136 bytes in wasm).
struct Offer {
  double vcpus = 0;
  double ram_gb = 0;
  double network_gbps = 0;
  double billing_increment_s = 3600;
  double min_charge_s = 0;
  // Hash of what the performance model depends on (GPU, GPUs per node, interconnect, network, RDMA):
  // offers with equal hardware share one evaluation when ranking.
  uint64_t hardware_hash = 0;
  std::string id;
  Atom provider;
  Atom instance_type;
  Atom gpu_id;
  const GpuSpec* gpu = nullptr;  // resolved against the GPU database at load time
  int gpu_count = 0;
  Atom interconnect;             // nvswitch | nvlink | pcie | infinity-fabric | none
  Atom region;
  Atom currency = "USD";
  // Vendor-stated figures, when the catalog gives any (a few offers do; shared so that offers stay small).
  std::shared_ptr<const Claims> claims;
  std::vector<Price> prices;
  Messages warnings;    // claim-check discrepancies and data warnings, carried into results
  bool rdma = false;
  bool example = false;
  bool marketplace = false;      // independent hosts rented through a marketplace (peer-to-peer)

  // Published service features (the defaults when the offer publishes none; few do, so they are out of line).
  const Service& service() const { return service_ ? *service_ : kNoService; }
  void setService(const Service& s);
  bool sameHardware(const Offer& o) const {
    return gpu_id == o.gpu_id && gpu_count == o.gpu_count && interconnect == o.interconnect &&
           network_gbps == o.network_gbps && rdma == o.rdma;
  }

  const Price* price(PricingModel m) const;

 private:
  std::shared_ptr<const Service> service_;
};

struct Catalog {
  std::vector<Offer> offers;
};

// Moves `from`'s offers to the end of `to` (taking the whole vector when `to` is empty), leaving `from` empty.
void appendOffers(std::vector<Offer>& to, std::vector<Offer>& from);

// The document's members other than its offers (schema_version), with their errors at their paths.
void readCatalogHeader(ObjectReader& root);
// Reads one parsed catalog document and appends its offers to `out` (only when it has no errors).
// Ids already in `taken_ids` are duplicates; the document's ids are added to it on success.
// Every problem is reported with its JSON Pointer path.
Issues parseCatalog(const json& doc, const GpuDatabase& gpus, std::unordered_set<std::string>& taken_ids, Catalog& out,
                    const std::string& today);
// Reads catalog text that arrives in pieces (split anywhere): one catalog document or a JSON array of them (issue
// paths then start with the document's index). Each offer is read as soon as its text is complete, so the whole
// text never has to be in memory, and common well-formed offers skip the JSON DOM (a direct reader that hands
// anything unusual - escapes, non-ASCII, nulls, unknown nested values, any rule violation - to the DOM reader,
// which reports it with its JSON Pointer path). Structural problems (bad syntax, no "instances" array) make
// feed()/finish() return false: the caller then parses the whole text to report them with line and column.
class CatalogStreamReader {
 public:
  CatalogStreamReader(const GpuDatabase& gpus, std::unordered_set<std::string>& taken_ids, const std::string& today,
                      bool fast_path = true);
  ~CatalogStreamReader();
  CatalogStreamReader(const CatalogStreamReader&) = delete;
  CatalogStreamReader& operator=(const CatalogStreamReader&) = delete;
  // Total text size when known in advance: lets the reader reserve its offer storage once.
  void expectBytes(size_t total_bytes);
  // Returns false once the text cannot be a well-formed catalog; later calls then do nothing.
  bool feed(const char* data, size_t size);
  // Ends the text. Returns false when it was not well formed. Otherwise appends the offers of documents without
  // errors to `out`, adds their ids to `taken_ids` and every problem found to `issues`.
  bool finish(Catalog& out, Issues& issues);
  size_t offersRead() const;
  size_t offersReadDirectly() const;  // of which without a DOM
  // True once a value beyond io/limits.hpp stopped the reader (the text must not be read whole either).
  bool tooLarge() const;
  // Adds the too_large issues and returns true when the reader stopped at an oversized value.
  bool sizeIssues(Issues& issues) const;

 private:
  struct State;
  State* s_;
};

// Whole text at once (see CatalogStreamReader).
bool parseCatalogStream(const std::string& json_text, const GpuDatabase& gpus, std::unordered_set<std::string>& taken_ids,
                        Catalog& out, const std::string& today, Issues& issues);

// The DOM reader of one offer (/instances/<index>); returns false when it is not an object.
bool readOfferJson(const json& inst, size_t index, const GpuDatabase& gpus, const std::unordered_set<std::string>& taken_ids,
                   std::unordered_set<std::string>& ids, long today_day, Offer& o, Issues& issues);
// FNV-1a over what the performance model reads (see Offer::hardware_hash).
uint64_t hardwareHash(const Offer& o);

// Convenience for text: parses, then checks ids against `existing`.
Issues parseCatalog(const std::string& json_text, const GpuDatabase& gpus, const Catalog& existing, Catalog& out,
                    const std::string& today);

// Compares an offer's vendor-stated figures with the datasheet; returns one sentence per discrepancy.
Messages claimCheck(const Offer& offer);

// Prices older than this are flagged in every result that uses them.
constexpr int kStaleAfterDays = 180;
// Hours in an average month: 8760 h / 12 (the convention AWS, GCP and Azure price pages use: 730 h).
constexpr double kHoursPerMonth = 730.0;
// "on_demand price is stale: as of …" when `p` is older than kStaleAfterDays on `today`, else "".
Message staleWarning(const Price& p, const std::string& today);
// True when the price is older than kStaleAfterDays on the given day number (see dayNumber).
bool isStale(const Price& p, long today_day);

// Days since 1970-01-01 of a YYYY-MM-DD date; 0 when malformed.
long dayNumber(const std::string& iso_date);
// Days between two YYYY-MM-DD dates (b - a); returns 0 when either is malformed.
int daysBetween(const std::string& a, const std::string& b);
// A calendar date YYYY-MM-DD (2026-02-30 is not one) in the years a price date may take.
constexpr int kFirstDateYear = 1990;
constexpr int kLastDateYear = 2200;
bool isIsoDate(const std::string& s);
// nlohmann parser callback for one offer's text: members the offer table does not name (catalog_fields::
// kOfferRecord) are skipped while parsing, so their values are never built; the reader ignores them anyway.
bool keepKnownOfferMembers(int depth, json::parse_event_t event, json& parsed);
// True for an offer id that is empty or only white space (an error: ids name offers in links and saved data).
bool isBlankId(const std::string& id);

}  // namespace gpuvalue
