// PrefixDiversity: a list takes at most diversity_per_bucket_max contacts of one network prefix
// (other ids), IPv4 and IPv6 by their own prefix lengths, and local addresses only when not
// exempt.
#include "kademlia/routing/prefix_diversity.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "support/routing_table_util.h"

namespace skillnode::kademlia::routing {
namespace {

using namespace routing_test;  // NOLINT: test helpers

// A RoutingConfig, a PrefixDiversity reading it, and a list of stored contacts released at the
// end.
class Setup {
 public:
  explicit Setup(size_t per_prefix) { config.diversity_per_bucket_max = per_prefix; }
  ~Setup() { contacts_.ReleaseAll(list_); }
  Setup(const Setup&) = delete;
  Setup& operator=(const Setup&) = delete;
  void Add(int i, const std::string& ip) { list_.push_back(contacts_.Store(Far(i, ip))); }
  bool Allows(int i, const std::string& ip) const { return diversity_.Allows(list_, Far(i, ip)); }

  RoutingConfig config;  // /24, /64, local exempt unless a case changes it

 private:
  StoredContacts contacts_{nullptr};
  const PrefixDiversity diversity_{config, contacts_};
  std::vector<StoredContact> list_;
};

TEST_CASE("prefix diversity refuses a third contact of one IPv4 /24", "[unit]") {
  Setup setup(2);
  CHECK(setup.Allows(1, "203.0.113.1"));
  setup.Add(1, "203.0.113.1");
  setup.Add(2, "203.0.113.2");
  CHECK_FALSE(setup.Allows(3, "203.0.113.250"));
  CHECK(setup.Allows(3, "203.0.114.3"));  // the next /24
  // A contact already listed (the same id) at a new address of the prefix does not count twice.
  CHECK(setup.Allows(2, "203.0.113.9"));
}

TEST_CASE("prefix diversity counts IPv6 by its own prefix length", "[unit]") {
  Setup setup(1);
  setup.Add(1, "2001:db8:0:1::1");
  CHECK_FALSE(setup.Allows(2, "2001:db8:0:1::ffff"));  // same /64
  CHECK(setup.Allows(2, "2001:db8:0:2::1"));
  setup.config.diversity_ipv6_prefix_bits = 48;  // read at every call: a wider prefix now
  CHECK_FALSE(setup.Allows(2, "2001:db8:0:2::1"));
}

TEST_CASE("prefix diversity exempts local addresses only when told to", "[unit]") {
  Setup setup(1);
  const std::vector<std::string> listed{"127.0.0.1", "192.168.1.10", "169.254.0.1"};
  const std::vector<std::string> offered{"127.0.0.1", "192.168.1.11", "169.254.0.2"};
  for (size_t i = 0; i < listed.size(); ++i) setup.Add(static_cast<int>(i) + 1, listed[i]);
  for (const auto& ip : offered) CHECK(setup.Allows(4, ip));
  setup.config.diversity_exempt_local = false;
  for (const auto& ip : offered) CHECK_FALSE(setup.Allows(4, ip));
  CHECK(setup.Allows(4, "10.0.0.1"));
}

}  // namespace
}  // namespace skillnode::kademlia::routing
