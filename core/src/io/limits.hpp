// Size limits of the engine's inputs. Every input is read in time and memory proportional to its size; these caps
// keep that memory within the wasm heap (at most 1 GB, see docs/toolchain.md) so that an oversized input is
// answered with a too_large error instead of exhausting memory. Each limit is far above what a real input needs.
#pragma once
#include <cstddef>

namespace gpuvalue {

// A request (workload, demand, options): the largest bundled preset request is under 2 KB.
constexpr size_t kMaxRequestBytes = 1u << 20;
// One offer of a catalog: a real offer (SkyPilot imports included) is under 4 KB.
constexpr size_t kMaxOfferBytes = 1u << 20;
// A catalog member other than its offers (schema_version, notes, sources).
constexpr size_t kMaxCatalogMemberBytes = 1u << 20;
// JSON values (numbers, strings, arrays, objects) of one document read whole: a parsed value takes about 50 bytes
// of wasm memory with its container, so 4 million values stay near 200 MB; a 100,000-offer catalog has ~2.5 million.
constexpr size_t kMaxJsonValues = 4000000;
// Data rows of one SkyPilot CSV import: each row becomes an offer held as a JSON document until the import returns,
// and 400,000 rows exhausted the 1 GB heap (200,000 import in ~14 s); the largest public SkyPilot file (AWS) has
// about 15,000 rows.
constexpr size_t kMaxImportRows = 200000;

}  // namespace gpuvalue
