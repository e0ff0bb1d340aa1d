// Field tables: one table per JSON record type says, for each member, its name, JSON type, whether it is required,
// the value the engine uses when it is absent, numeric bounds, the accepted spellings of an enumeration and a
// description. Readers take their rules from the table (the DOM reader through ObjectReader, the catalog's direct
// reader through the same predicates), and JSON Schemas are written from it, so the three cannot disagree.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "io/json_reader.hpp"

namespace gpuvalue {

enum class FieldType { kString, kNumber, kInteger, kBoolean, kObject, kArray };

struct Record;

struct Field {
  const char* name = "";
  FieldType type = FieldType::kString;
  const char* description = "";
  bool required = false;
  // Numbers: the value must lie between min and max; an open end excludes the bound itself.
  double min = -1e300;
  bool min_open = false;
  double max = 1e300;
  bool max_open = false;
  // Strings: the accepted spellings (nullptr-terminated), compared exactly or ignoring ASCII case; another value is
  // reported as error.not_one_of {value, choices}.
  const char* const* choices = nullptr;
  bool choices_ignore_case = false;
  // What the engine uses when the member is absent or null; `has_default` says it is a value a document could
  // state (written as the schema's "default"), not a marker such as -1 for "not published".
  double absent_number = 0;
  const char* absent_string = "";
  bool absent_bool = false;
  bool has_default = false;
  // kObject: the nested record; kArray: the record of each item, or nullptr for an array of `item_type`.
  const Record* record = nullptr;
  FieldType item_type = FieldType::kString;
  bool non_empty = false;  // kArray: at least one item
  size_t length = 0;       // kArray: exactly this many items (0 = any number); numeric items lie within min/max
  // kArray: a single value of this type is accepted in place of the array (a filter's one string, a month's one
  // number, MIG jobs as one text); `has_single` says there is one.
  FieldType single_type = FieldType::kString;
  bool has_single = false;
  // Strings: a format the schema names ("date": YYYY-MM-DD), the engine's check of it and the message code
  // reported (with the value) when the check fails.
  const char* format = nullptr;
  bool (*format_check)(const std::string&) = nullptr;
  const char* format_error = nullptr;
  // Records with a discriminator (a price's "model"): the values this member belongs to (nullptr = all).
  const char* const* variants = nullptr;
  // False for members documented for editors that the engine ignores (notes, a price in local currency).
  bool engine_reads = true;

  // Builders, so that tables read as one line a member.
  static constexpr Field string(const char* n, const char* d) { return make(n, FieldType::kString, d); }
  static constexpr Field number(const char* n, const char* d) { return make(n, FieldType::kNumber, d); }
  static constexpr Field integer(const char* n, const char* d) { return make(n, FieldType::kInteger, d); }
  static constexpr Field boolean(const char* n, const char* d) { return make(n, FieldType::kBoolean, d); }
  static constexpr Field object(const char* n, const Record* r, const char* d) {
    Field f = make(n, FieldType::kObject, d);
    f.record = r;
    return f;
  }
  static constexpr Field array(const char* n, const Record* r, const char* d) {
    Field f = make(n, FieldType::kArray, d);
    f.record = r;
    f.item_type = FieldType::kObject;  // without a record: objects of any shape
    return f;
  }
  static constexpr Field strings(const char* n, const char* d) { return make(n, FieldType::kArray, d); }
  static constexpr Field numbers(const char* n, const char* d) {
    Field f = make(n, FieldType::kArray, d);
    f.item_type = FieldType::kNumber;
    return f;
  }
  constexpr Field req() const { Field f = *this; f.required = true; return f; }
  constexpr Field above(double v) const { Field f = *this; f.min = v; f.min_open = true; return f; }
  constexpr Field atLeast(double v) const { Field f = *this; f.min = v; f.min_open = false; return f; }
  constexpr Field atMost(double v) const { Field f = *this; f.max = v; f.max_open = false; return f; }
  constexpr Field below(double v) const { Field f = *this; f.max = v; f.max_open = true; return f; }
  constexpr Field oneOf(const char* const* c) const { Field f = *this; f.choices = c; return f; }
  constexpr Field ignoringCase() const { Field f = *this; f.choices_ignore_case = true; return f; }
  constexpr Field byDefault(double v) const { Field f = *this; f.absent_number = v; f.has_default = true; return f; }
  constexpr Field byDefault(const char* v) const { Field f = *this; f.absent_string = v; f.has_default = true; return f; }
  constexpr Field byDefault(bool v) const { Field f = *this; f.absent_bool = v; f.has_default = true; return f; }
  constexpr Field whenAbsent(double v) const { Field f = *this; f.absent_number = v; return f; }
  constexpr Field formatted(const char* fmt, bool (*check)(const std::string&), const char* error_code) const {
    Field f = *this; f.format = fmt; f.format_check = check; f.format_error = error_code; return f;
  }
  constexpr Field nonEmpty() const { Field f = *this; f.non_empty = true; return f; }
  constexpr Field ofLength(size_t n) const { Field f = *this; f.length = n; return f; }
  constexpr Field orSingle(FieldType t) const { Field f = *this; f.single_type = t; f.has_single = true; return f; }
  // The same member for records without a discriminator (a request member read with a workload field's rules).
  constexpr Field anyVariant() const { Field f = *this; f.variants = nullptr; return f; }
  constexpr Field onlyFor(const char* const* v) const { Field f = *this; f.variants = v; return f; }
  constexpr Field ignored() const { Field f = *this; f.engine_reads = false; return f; }

 private:
  static constexpr Field make(const char* n, FieldType t, const char* d) {
    Field f;
    f.name = n;
    f.type = t;
    f.description = d;
    return f;
  }
};

struct Record {
  const char* name;         // the schema's $defs key
  const char* description;
  const Field* const* fields;
  size_t count;
  // The member whose value chooses which other members apply (see Field::variants), or nullptr.
  const char* discriminator = nullptr;
  // True when members the table does not name are allowed (the schema's additionalProperties).
  bool open = false;
  // The member of that name, or nullptr.
  const Field* find(const std::string& name) const;
};

template <size_t N>
constexpr Record makeRecord(const char* name, const char* description, const Field* const (&fields)[N],
                            const char* discriminator = nullptr, bool open = false) {
  return Record{name, description, fields, N, discriminator, open};
}

// The field's choices as one list ("none, partial, all"), for messages.
std::string choiceList(const Field& f);
// True when the text is one of the field's choices (always true for a field without choices).
bool isChoice(const Field& f, const char* s, size_t len);
inline bool isChoice(const Field& f, const std::string& s) { return isChoice(f, s.data(), s.size()); }
// True when the number satisfies the field's bounds (and is whole for kInteger); false for NaN and infinities.
bool inBounds(const Field& f, double v);
// True when the field applies to records whose discriminator has this value.
bool appliesTo(const Field& f, const std::string& variant);

// DOM reading with the field's rules; problems are reported by ObjectReader with their JSON Pointer paths.
// An absent or null member gives nullopt (and "is required" when it is required).
std::optional<double> readNumber(ObjectReader& r, const Field& f);
std::optional<std::string> readString(ObjectReader& r, const Field& f);
std::optional<bool> readBoolean(ObjectReader& r, const Field& f);
// The same, giving the field's absent value when the member is absent or invalid.
double numberOr(ObjectReader& r, const Field& f);
std::string stringOr(ObjectReader& r, const Field& f);
bool booleanOr(ObjectReader& r, const Field& f);
// A whole-number member as an int, or `fallback` (a value the caller keeps, e.g. a member initialiser or what an
// offer states) when it is absent or invalid.
int integerOr(ObjectReader& r, const Field& f, int fallback);
// An array of strings (Field::strings): its string items, each other item reported at its own path; nothing when
// absent or null (and "is required" when it is required). When the field takes a single string (orSingle), it is a list of one (a request's filter lists).
std::vector<std::string> readStrings(ObjectReader& r, const Field& f);
// The items of an array of numbers (Field::numbers) at `path`, each within the field's bounds; each item outside
// them is reported at its own path (error.number_range), after the first one only when `all`. False when any was.
bool readNumberItems(const json& items, const std::string& path, const Field& f, std::vector<double>& out, Issues& issues,
                     bool all = true);

}  // namespace gpuvalue
