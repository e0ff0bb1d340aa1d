// Writers shared by the API methods' answers: errors and issues, the memory breakdown, throughput, an offer in
// brief and sourced assumptions. Each is written in one place; sentences are messages (io/messages.hpp).
#pragma once
#include <string>
#include <vector>

#include "io/issues.hpp"
#include "io/json_writer.hpp"
#include "io/messages.hpp"
#include "model/performance.hpp"
#include "tools/decisions.hpp"

namespace gpuvalue {

// ---- numbers and labels ----------------------------------------------------------------------------------
double finiteOr(double v, double fallback = 0);
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
// A rented offer ({id, instance, provider, gpu_count, pricing, usd_per_hour, as_of, source, warning?}), or null.
void writeRental(JsonWriter& j, const Offer* offer, const Price* price, const std::string& today);

// ---- sourced assumptions ---------------------------------------------------------------------------------
// Inputs a decision tool assumed, each {"value", "source"} under its key; a key given twice keeps the last. A
// value is a number or a message; a source is a message (its catalog text names the document, a URL or an entry
// of docs/sources.md).
class Assumptions {
 public:
  void add(const std::string& key, double value, const Message& source);
  void add(const std::string& key, const Message& value, const Message& source);
  void write(JsonWriter& j) const;

 private:
  struct Item {
    std::string key;
    bool is_text = false;
    double number = 0;
    Message text, source;
  };
  Item& slot(const std::string& key);
  std::vector<Item> items_;
};

}  // namespace gpuvalue
