#include "io/schema_writer.hpp"

#include <map>

namespace gpuvalue {

namespace {

using Json = nlohmann::ordered_json;  // members in table order

const char* typeName(FieldType t) {
  switch (t) {
    case FieldType::kString: return "string";
    case FieldType::kNumber: return "number";
    case FieldType::kInteger: return "integer";
    case FieldType::kBoolean: return "boolean";
    case FieldType::kObject: return "object";
    case FieldType::kArray: return "array";
  }
  return "string";
}

// "fp16" -> "[fF][pP]16": a choice in any letter case, as an ECMA-262 pattern.
std::string anyCase(const char* s) {
  std::string out;
  for (const char* c = s; *c; ++c) {
    const char l = *c >= 'A' && *c <= 'Z' ? static_cast<char>(*c - 'A' + 'a') : *c;
    if (l >= 'a' && l <= 'z') out += std::string("[") + l + static_cast<char>(l - 'a' + 'A') + "]";
    else if (std::string("\\^$.|?*+()[]{}-").find(l) != std::string::npos) out += std::string("\\") + l;
    else out += l;
  }
  return out;
}

class Writer {
 public:
  explicit Writer(const SchemaDocument& d) : doc_(d) {}

  Json record(const Record& r) {
    Json s;  // member by member throughout: initializer lists cost the size-optimised engine more code
    s["type"] = "object";
    s["description"] = r.description;
    Json props = Json::object(), required = Json::array();
    std::map<std::string, std::vector<const Field*>> by_variant;
    for (size_t i = 0; i < r.count; ++i) {
      const Field& f = *r.fields[i];
      if (f.variants) {
        if (!props.contains(f.name)) props[f.name]["description"] = f.description;
        for (const char* const* v = f.variants; *v; ++v) by_variant[*v].push_back(&f);
        continue;
      }
      props[f.name] = field(f);
      if (f.required) required.push_back(f.name);
    }
    s["properties"] = props;
    if (!required.empty()) s["required"] = required;
    if (!r.open) s["additionalProperties"] = false;
    if (r.discriminator) s["allOf"] = variants(r, by_variant);
    return s;
  }

  Json field(const Field& f) {
    Json s = Json::object();
    if (f.type == FieldType::kObject && f.record) {
      s["$ref"] = "#/$defs/" + define(*f.record);
    } else {
      s["type"] = typeName(f.type);
      if (f.type == FieldType::kArray) items(f, s);
      if (f.type == FieldType::kString) strings(f, s);
      if (f.type == FieldType::kNumber || f.type == FieldType::kInteger) bounds(f, s);
      if (!f.required && f.type != FieldType::kObject && f.type != FieldType::kArray) {
        s["type"] = Json::array({typeName(f.type), "null"});
        if (s.contains("enum")) s["enum"].push_back(nullptr);
      }
    }
    const std::string description = f.description[0] || !f.record ? f.description : f.record->description;
    if (!description.empty()) s["description"] = description;
    if (f.has_default) {
      if (f.type == FieldType::kString) s["default"] = f.absent_string;
      else if (f.type == FieldType::kBoolean) s["default"] = f.absent_bool;
      else s["default"] = f.absent_number;
    }
    return s;
  }

  // Records reached from the root, by name (each written once).
  std::string define(const Record& r) {
    if (!defs_.contains(r.name)) {
      defs_[r.name] = Json::object();  // reserved first: records may refer to each other
      defs_[r.name] = record(r);
    }
    return r.name;
  }

  const Json& defs() const { return defs_; }

 private:
  void items(const Field& f, Json& s) {
    const auto numeric = [](FieldType t) { return t == FieldType::kNumber || t == FieldType::kInteger; };
    if (f.record) {
      s["items"]["$ref"] = "#/$defs/" + define(*f.record);
    } else {
      Json item;
      item["type"] = typeName(f.item_type);
      if (numeric(f.item_type)) bounds(f, item);
      if (f.item_type == FieldType::kString && f.choices) strings(f, item);  // each item one of the choices
      s["items"] = item;
    }
    if (f.non_empty) s["minItems"] = 1;
    if (f.length) s["minItems"] = f.length, s["maxItems"] = f.length;
    // One value in place of the array: the bounds apply to it too (minimum and maximum constrain numbers only).
    if (f.has_single) {
      s["type"] = Json::array({"array", typeName(f.single_type)});
      if (numeric(f.single_type)) bounds(f, s);
    }
  }

  void strings(const Field& f, Json& s) {
    if (f.format && std::string(f.format) == "gpu_id") {
      s["enum"] = doc_.gpu_ids;
      return;
    }
    if (f.format) {
      s["format"] = f.format;
      s["pattern"] = "^[0-9]{4}-[0-9]{2}-[0-9]{2}$";
    }
    // A string marked non_empty must hold more than white space (the engine's isBlankId).
    if (f.non_empty && !f.format) s["pattern"] = "\\S";
    if (!f.choices) return;
    if (!f.choices_ignore_case) {
      Json e = Json::array();
      for (const char* const* c = f.choices; *c; ++c) e.push_back(*c);
      s["enum"] = e;
      return;
    }
    std::string p = "^(";
    for (const char* const* c = f.choices; *c; ++c) p += (c == f.choices ? "" : "|") + anyCase(*c);
    s["pattern"] = p + ")$";
  }

  static void bounds(const Field& f, Json& s) {
    if (f.min > -1e300) s[f.min_open ? "exclusiveMinimum" : "minimum"] = f.min;
    if (f.max < 1e300) s[f.max_open ? "exclusiveMaximum" : "maximum"] = f.max;
  }

  Json variants(const Record& r, const std::map<std::string, std::vector<const Field*>>& by_variant) {
    Json all = Json::array();
    const Field* d = r.find(r.discriminator);
    for (const char* const* v = d && d->choices ? d->choices : nullptr; v && *v; ++v) {
      Json then;
      then["properties"] = Json::object();
      Json required = Json::array();
      auto it = by_variant.find(*v);
      if (it != by_variant.end())
        for (const Field* f : it->second) {
          then["properties"][f->name] = field(*f);
          if (f->required) required.push_back(f->name);
        }
      if (!required.empty()) then["required"] = required;
      Json& one = all.emplace_back();
      one["if"]["properties"][r.discriminator]["const"] = *v;
      one["if"]["required"] = Json::array();
      one["if"]["required"].push_back(r.discriminator);
      one["then"] = std::move(then);
    }
    return all;
  }

  const SchemaDocument& doc_;
  Json defs_ = Json::object();
};

}  // namespace

nlohmann::ordered_json writeSchema(const SchemaDocument& doc) {
  Writer w(doc);
  Json root = w.record(*doc.root);
  Json out;
  out["$schema"] = "https://json-schema.org/draft/2020-12/schema";
  out["$id"] = doc.id;
  out["title"] = doc.title;
  for (auto it = root.begin(); it != root.end(); ++it) out[it.key()] = it.value();
  if (!w.defs().empty()) out["$defs"] = w.defs();
  return out;
}

}  // namespace gpuvalue
