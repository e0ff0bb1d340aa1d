// JSON Schema (draft 2020-12) written from field tables (io/fields.hpp).
#pragma once
#include <string>
#include <vector>

#include "io/fields.hpp"

namespace gpuvalue {

struct SchemaDocument {
  const Record* root;
  const char* id;     // $id
  const char* title;
  std::vector<std::string> gpu_ids;  // the enum of string fields with format "gpu_id"
};

// The schema of a document whose top level is `root`: every nested record once under $defs. Records are closed
// (additionalProperties: false) unless the table says otherwise; an optional scalar member may be null (the
// readers take null as absent); a record with a discriminator gets one if/then per value that requires and
// bounds the members of that variant.
// Members in table order (ordered_json), so that the files read like the tables.
nlohmann::ordered_json writeSchema(const SchemaDocument& doc);

}  // namespace gpuvalue
