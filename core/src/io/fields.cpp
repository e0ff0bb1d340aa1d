#include "io/fields.hpp"

#include <cmath>
#include <cstring>

namespace gpuvalue {

const Field* Record::find(const std::string& name) const {
  for (size_t i = 0; i < count; ++i)
    if (name == fields[i]->name) return fields[i];
  return nullptr;
}

static bool equalIgnoringCase(const char* a, const char* b, size_t len) {
  for (size_t i = 0; i < len; ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

std::string choiceList(const Field& f) {
  std::string out;
  for (const char* const* c = f.choices; c && *c; ++c) {
    if (!out.empty()) out += ", ";
    out += *c;
  }
  return out;
}

bool isChoice(const Field& f, const char* s, size_t len) {
  if (!f.choices) return true;
  for (const char* const* c = f.choices; *c; ++c) {
    if (std::strlen(*c) != len) continue;
    if (f.choices_ignore_case ? equalIgnoringCase(*c, s, len) : std::memcmp(*c, s, len) == 0) return true;
  }
  return false;
}

bool inBounds(const Field& f, double v) {
  if (!std::isfinite(v)) return false;
  if (f.min_open ? !(v > f.min) : !(v >= f.min)) return false;
  if (f.max_open ? !(v < f.max) : v > f.max) return false;
  return f.type != FieldType::kInteger || v == std::floor(v);
}

bool appliesTo(const Field& f, const std::string& variant) {
  if (!f.variants) return true;
  for (const char* const* v = f.variants; *v; ++v)
    if (variant == *v) return true;
  return false;
}

std::optional<double> readNumber(ObjectReader& r, const Field& f) {
  if (f.type == FieldType::kInteger) {
    const auto v = r.integer(f.name, f.required, static_cast<long long>(f.min), static_cast<long long>(f.max));
    if (!v) return std::nullopt;
    return static_cast<double>(*v);
  }
  return r.number(f.name, f.required, f.min, f.min_open, f.max, f.max_open);
}

std::optional<std::string> readString(ObjectReader& r, const Field& f) {
  auto v = r.string(f.name, f.required);
  if (!v) return v;
  if (f.format_check && !f.format_check(*v)) {
    r.error(f.name, ErrorCode::kInvalidValue, Message(f.format_error).text("value", excerpt(*v)));
    return std::nullopt;
  }
  if (!isChoice(f, *v)) {
    r.error(f.name, ErrorCode::kInvalidValue, Message("error.not_one_of").text("value", excerpt(*v)).text("choices", choiceList(f)));
    return std::nullopt;
  }
  return v;
}

std::optional<bool> readBoolean(ObjectReader& r, const Field& f) { return r.boolean(f.name, f.required); }

double numberOr(ObjectReader& r, const Field& f) { return readNumber(r, f).value_or(f.absent_number); }
std::string stringOr(ObjectReader& r, const Field& f) { return readString(r, f).value_or(f.absent_string); }
bool booleanOr(ObjectReader& r, const Field& f) { return readBoolean(r, f).value_or(f.absent_bool); }
int integerOr(ObjectReader& r, const Field& f, int fallback) { return static_cast<int>(readNumber(r, f).value_or(fallback)); }

std::vector<std::string> readStrings(ObjectReader& r, const Field& f) {
  const bool or_one_string = f.has_single && f.single_type == FieldType::kString;
  std::vector<std::string> out;
  const json* v = r.get(f.name);
  if (!v || v->is_null()) {
    if (f.required && r.ok()) r.error(f.name, ErrorCode::kMissingField, Message("error.required"));
    return out;
  }
  if (or_one_string && v->is_string()) {
    out.push_back(v->get<std::string>());
    return out;
  }
  if (!v->is_array()) {
    r.error(f.name, ErrorCode::kInvalidValue, Message(or_one_string ? "error.not_string_list" : "error.not_string_array"));
    return out;
  }
  for (size_t i = 0; i < v->size(); ++i) {
    if ((*v)[i].is_string()) out.push_back((*v)[i].get<std::string>());
    else r.errorAt(r.childPath(f.name) + "/" + std::to_string(i), ErrorCode::kInvalidValue, Message("error.not_string"));
  }
  return out;
}

bool readNumberItems(const json& items, const std::string& path, const Field& f, std::vector<double>& out, Issues& issues,
                     bool all) {
  bool ok = true;
  for (size_t i = 0; i < items.size(); ++i) {
    const json& x = items[i];
    if (x.is_number() && inBounds(f, x.get<double>())) {
      out.push_back(x.get<double>());
      continue;
    }
    issues.push_back({ErrorCode::kInvalidValue, path + "/" + std::to_string(i),
                      Message("error.number_range").text("lower", f.min_open ? "open" : "closed").num("min", f.min)
                          .text("upper", f.max_open ? "open" : "closed").num("max", f.max)});
    ok = false;
    if (!all) return false;
  }
  return ok;
}

}  // namespace gpuvalue
