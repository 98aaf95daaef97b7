// Prints ValidateMcpServer's verdict on server.json files, for mcp_server_schema_test.py (the
// cross-check with Python's jsonschema): "FILE: valid", or one "FILE: pointer: reason" line per
// violation. Exits 0 when every file is valid, 1 when one is not, 2 when one cannot be read or
// is not JSON.
//
// Usage: mcp_server_check FILE.json...
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "discovery/schema/mcp_server_schema.h"

int main(int argc, char** argv) {
  using skillnode::discovery::schema::ToString;
  using skillnode::discovery::schema::ValidateMcpServer;
  int status = 0;
  for (int i = 1; i < argc; ++i) {
    std::ifstream in(argv[i]);
    std::stringstream text;
    text << in.rdbuf();
    const nlohmann::json server = nlohmann::json::parse(text.str(), nullptr, false);
    if (!in || server.is_discarded()) {
      std::cerr << argv[i] << ": cannot read it as JSON\n";
      return 2;
    }
    const auto violations = ValidateMcpServer(server);
    if (violations.empty()) std::cout << argv[i] << ": valid\n";
    for (const auto& v : violations) std::cout << argv[i] << ": " << ToString(v) << "\n";
    if (!violations.empty()) status = 1;
  }
  return status;
}
