// The checks every signed value type of the store (skill records, record_checks.h; term
// pointers, term_pointer.h) is validated with: an error that names its field, text and lists
// against their limits and the seed's text format, and UTF-8 character bounds. Each error reads
// "<field>: <reason>". Free functions on plain values; no ownership, no I/O. For the store's
// value types and their tests: nothing outside kademlia/store/ includes it.
#ifndef SKILLNODE_KADEMLIA_STORE_RECORD_FIELD_CHECKS_H_
#define SKILLNODE_KADEMLIA_STORE_RECORD_FIELD_CHECKS_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "transport/result.h"

namespace skillnode::kademlia::store::field_checks {

// An error of kInvalidArgument: "<field>: <reason>".
tl::unexpected<transport::Error> Invalid(std::string_view field, const std::string& reason);
// "<n> <unit>", as reasons state a size ("12 bytes").
std::string Count(size_t n, std::string_view unit);

// Characters in `text` as UTF-8 counts them: every byte that does not continue a sequence
// (0b10xxxxxx). Text that is not UTF-8 counts one character per such byte.
size_t CharacterCount(std::string_view text);
// Whether `text` ends inside a UTF-8 sequence: its last lead byte begins a longer sequence than
// the bytes after it hold. Continuation bytes alone (not UTF-8) are not a cut.
bool EndsInsideCharacter(std::string_view text);
// Whether `text` holds a control character (below 0x20, or 0x7f).
bool HasControlCharacter(std::string_view text);

// `text` at most `max` bytes (and non-empty when `required`), without the seed's separators
// (';', ',', '|') or control characters unless `separators_allowed`.
[[nodiscard]] transport::Result<void> CheckText(std::string_view field, std::string_view text,
                                                size_t max, bool required,
                                                bool separators_allowed = false);
// At most `count_max` entries, each as CheckText (required) and none listed twice.
[[nodiscard]] transport::Result<void> CheckList(std::string_view field,
                                                const std::vector<std::string>& items,
                                                size_t count_max, size_t length_max,
                                                bool separators_allowed = false);

}  // namespace skillnode::kademlia::store::field_checks

#endif  // SKILLNODE_KADEMLIA_STORE_RECORD_FIELD_CHECKS_H_
