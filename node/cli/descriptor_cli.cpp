#include "node/cli/descriptor_cli.h"

#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <sstream>

#include "discovery/schema/descriptor_schema.h"

namespace skillnode::node::cli {
namespace {

using nlohmann::json;
namespace schema = discovery::schema;

constexpr int kExitInvalid = 1;
constexpr int kExitUnreadable = 2;

// The JSON in `file` ("-": standard input), or nullopt after saying why on stderr.
std::optional<json> ReadJson(const std::string& file) {
  std::string text;
  if (file == "-") {
    text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  } else {
    std::ifstream in(file, std::ios::binary);
    if (!in) {
      std::cerr << "skillnode: cannot read " << file << "\n";
      return std::nullopt;
    }
    std::ostringstream buffer;
    buffer << in.rdbuf();
    text = buffer.str();
  }
  try {
    return json::parse(text);
  } catch (const json::exception& e) {
    std::cerr << "skillnode: " << file << " is not JSON: " << e.what() << "\n";
    return std::nullopt;
  }
}

void PrintViolations(std::ostream& out, const std::vector<schema::SchemaViolation>& violations) {
  for (const schema::SchemaViolation& v : violations) out << schema::ToString(v) << "\n";
}

int Validate(const std::string& file) {
  auto document = ReadJson(file);
  if (!document) return kExitUnreadable;
  const auto violations = schema::ValidateDescriptor(*document);
  if (violations.empty()) {
    std::cout << file << ": valid\n";
    return 0;
  }
  PrintViolations(std::cout, violations);
  std::cerr << file << ": invalid, " << violations.size() << " violation"
            << (violations.size() == 1 ? "" : "s") << "\n";
  return kExitInvalid;
}

int Format(const std::string& file) {
  auto document = ReadJson(file);
  if (!document) return kExitUnreadable;
  const auto violations = schema::ValidateDescriptor(*document);
  if (!violations.empty()) {
    PrintViolations(std::cerr, violations);
    std::cerr << file << ": invalid, " << violations.size() << " violation"
              << (violations.size() == 1 ? "" : "s") << "; not printed\n";
    return kExitInvalid;
  }
  std::cout << schema::FormatDescriptor(*document);
  return 0;
}

}  // namespace

void DescriptorCommands::Add(CLI::App& app) {
  descriptor_ = app.add_subcommand(
      "descriptor", "Check or pretty print a Skill Descriptor (docs/schema.md); no node needed.");
  descriptor_->require_subcommand(1);
  validate_ = descriptor_->add_subcommand(
      "validate",
      "Check FILE against the Skill Descriptor schema; print \"FILE: valid\" or each "
      "violation as \"pointer: reason\".");
  fmt_ = descriptor_->add_subcommand(
      "fmt", "Print FILE pretty: 2-space indent, keys in the schema's order (valid files only).");
  for (CLI::App* command : {validate_, fmt_}) {
    command->add_option("FILE", file_, "The descriptor (JSON); - reads standard input")->required();
    command->footer("Exit status: 0 valid, 1 invalid, 2 unreadable, not JSON, or usage error.");
  }
  descriptor_->footer("Exit status: 0 valid, 1 invalid, 2 unreadable, not JSON, or usage error.");
}

bool DescriptorCommands::RunParsed(int& status) {
  if (validate_ != nullptr && validate_->parsed()) {
    status = Validate(file_);
    return true;
  }
  if (fmt_ != nullptr && fmt_->parsed()) {
    status = Format(file_);
    return true;
  }
  return false;
}

}  // namespace skillnode::node::cli
