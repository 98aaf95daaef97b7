// BootstrapListReader: the bootstrap peers, as 'host:port' or {host, port}
// (bootstrap_list_reader.h).
#include "node/config/bootstrap_list_reader.h"

#include "node/config/config_yaml.h"

namespace skillnode::node::config {

void BootstrapListReader::Read(const std::string& key, std::vector<transport::HostPort>& out) {
  const YamlValue* list = section_.Raw(key);
  if (list == nullptr || list->kind == YamlValue::Kind::kNull) return;
  if (list->kind != YamlValue::Kind::kSequence) {
    return section_.Error(key, "expected a list of {host, port}, got " + list->Describe(), list);
  }
  if (list->items.size() > kBootstrapNodesMax) {
    return section_.Error(key,
                          "at most " + std::to_string(kBootstrapNodesMax) + " entries, got " +
                              std::to_string(list->items.size()),
                          list);
  }
  out.clear();
  for (size_t i = 0; i < list->items.size(); ++i) {
    ReadEntry(key + "[" + std::to_string(i) + "]", list->items[i], out);
  }
}

void BootstrapListReader::ReadEntry(const std::string& key, const YamlValue& item,
                                    std::vector<transport::HostPort>& out) {
  std::string text;
  std::string problem_key = key;
  if (item.kind == YamlValue::Kind::kScalar) {
    text = item.scalar;
  } else if (item.kind == YamlValue::Kind::kMap) {
    ConfigSection entry(&item, section_.PathOf(key), errors_);
    std::string host;
    int64_t port = -1;
    entry.String("host", host);
    entry.Int("port", 1, 65535, [&port](int64_t value) { port = value; });
    entry.Finish();
    if (item.Find("host") == nullptr) return section_.Error(key + ".host", "required", &item);
    if (item.Find("port") == nullptr) return section_.Error(key + ".port", "required", &item);
    if (port < 0) return;  // reported by Int
    const bool v6 = host.find(':') != std::string::npos;
    text = (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
    problem_key = key + ".host";
  } else {
    return section_.Error(key, "expected {host, port} or 'host:port', got " + item.Describe(),
                          &item);
  }
  auto parsed = transport::HostPort::Parse(text);
  if (!parsed) return section_.Error(problem_key, parsed.error().message, &item);
  out.push_back(*parsed);
}

}  // namespace skillnode::node::config
