// Writers shared by the API methods' answers: errors and issues, the memory breakdown, throughput, an offer in
// brief, sourced assumptions, and the number formats of the English sentences. Each is written in one place.
#pragma once
#include <string>
#include <vector>

#include "io/issues.hpp"
#include "io/json_writer.hpp"
#include "model/performance.hpp"
#include "tools/decisions.hpp"

namespace gpuvalue {

// ---- numbers in sentences --------------------------------------------------------------------------------
double finiteOr(double v, double fallback = 0);
std::string fixed(double v, int precision);           // fixed-point with `precision` decimals
std::string money(double usd);                        // "$1.23" below $100, "$1234" from there
std::string pct(double fraction, int precision = 1);  // 0.123 -> "12.3 %"
std::string hoursText(double hours);                  // "45.0 min", "3.2 h", "4.1 days"
std::string sci(double v);                            // 3 significant digits: "7e+09", "0.123"
std::string gpuLabel(int count, const GpuSpec& gpu);  // "8× NVIDIA A100 80GB"

// ---- errors ----------------------------------------------------------------------------------------------
// {"ok": false, "issues": [...], "error": {code, path, message}} (the first error; "internal" if none);
// retry_whole_text adds "retry_whole_text": true (a streamed catalog that was not well formed).
std::string errorResult(const Issues& issues, bool retry_whole_text = false);
// The issues as an array of {code, path, message, warning}.
void writeIssues(JsonWriter& j, const Issues& issues);
// The "error" member for the first error among the issues; nothing when there is none.
void writeFirstError(JsonWriter& j, const Issues& issues);

// ---- model results ---------------------------------------------------------------------------------------
enum class MemoryDetail { kFull, kBrief };
// A MemoryBreakdown: kFull with overhead and the parallelism degrees (estimate, rank), kBrief without (advise).
void writeMemory(JsonWriter& j, const MemoryBreakdown& m, MemoryDetail detail = MemoryDetail::kFull);
void writeThroughput(JsonWriter& j, const Throughput& t);
// The parallel plan of an estimate or ranked result: degrees, ZeRO stage, recomputation, micro-batching,
// pipeline bubble and exposed communication per axis.
void writePlan(JsonWriter& j, const MemoryBreakdown& m, const Throughput& t);
// The offer a decision tool chose ({stale, id, instance, provider, region, instances, usd_per_hour, as_of,
// source}), or null.
void writeOfferBrief(JsonWriter& j, const OfferChoice& c, const std::string& today);
// A rented offer ({id, instance, provider, gpu_count, usd_per_hour, as_of, source, warning?}), or null.
void writeRental(JsonWriter& j, const Offer* offer, const Price* price, const std::string& today);

// ---- sourced assumptions ---------------------------------------------------------------------------------
// Inputs a decision tool assumed, each {"value", "source"} under its key; a key given twice keeps the last.
class Assumptions {
 public:
  void add(const std::string& key, double value, const std::string& source);
  void add(const std::string& key, const std::string& text, const std::string& source);
  void write(JsonWriter& j) const;

 private:
  struct Item {
    std::string key;
    bool is_text = false;
    double number = 0;
    std::string text, source;
  };
  Item& slot(const std::string& key);
  std::vector<Item> items_;
};

}  // namespace gpuvalue
