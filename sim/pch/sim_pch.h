// Precompiled header of libsim (meson's cpp_pch; -Db_pch=false builds
// without it): the standard headers most of its sources include and the third-party headers
// that take the longest to parse. It makes nothing available: every source still includes what
// it uses. (No include guard: the compiler reads it once, as the main file of the PCH.)

#include <sodium.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <tl/expected.hpp>
#include <utility>
#include <vector>
