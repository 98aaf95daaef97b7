// The text of a JSON number as ECMAScript's Number.prototype.toString writes it (ES2015 §7.1.12.1,
// the form RFC 8785 §3.2.2.3 canonical JSON asks for): the shortest decimal digits that read
// back as the same double, placed in plain or exponent notation by the ES rules. Pure.
#ifndef SKILLNODE_NODE_JOSE_ES6_NUMBER_H_
#define SKILLNODE_NODE_JOSE_ES6_NUMBER_H_

#include <cstdint>
#include <string>

#include "transport/result.h"

namespace skillnode::node::jose {

// "0" for both zeros; NaN and the infinities have no JSON form (kInvalidArgument).
[[nodiscard]] transport::Result<std::string> Es6NumberText(double value);
// An integer's text when the double nearest it is exactly it, which is then that double's text
// (every integer up to 2^53, and some above: 2^60 gives "1152921504606847000" as JavaScript
// writes it, 10^22 "1e+22"); else kInvalidArgument, since the canonical form would silently
// change the number (RFC 8785 §3.2.2.3 advises sending such numbers as strings).
[[nodiscard]] transport::Result<std::string> Es6IntegerText(int64_t value);
[[nodiscard]] transport::Result<std::string> Es6IntegerText(uint64_t value);

}  // namespace skillnode::node::jose

#endif  // SKILLNODE_NODE_JOSE_ES6_NUMBER_H_
