// Runs the official JSON-Schema-Test-Suite (Debian's json-schema-test-suite 2.0.0, unpacked by
// .ci/fetch-debs) through JsonSchema, per draft this project claims (draft4, draft7).
//
// The validation cases run on valijson's own path (JsonSchema with the keyword policy off), so
// the pass counts are valijson's; the suite's remotes/ directory is the document store for
// remote $refs (http://localhost:1234/...), for these tests only. Separately it counts how many
// of the suite's schemas the keyword policy refuses. Fails when a case fails that is not listed
// in expected_failures_DRAFT.txt, or a listed case passes (so the list stays exact).
//
// Usage: test_suite_runner SUITE_DIR EXPECTED_DIR [--write-expected]
// (SHOW_POLICY=1 in the environment also prints why the policy refuses each schema.)
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "discovery/schema/json_schema.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using skillnode::discovery::schema::Draft;
using skillnode::discovery::schema::JsonSchema;
using skillnode::discovery::schema::ToString;

struct Tally {
  int passed = 0;
  int failed = 0;
};

struct DraftRun {
  Tally required, optional;
  int schemas = 0, schemas_refused = 0;
  std::vector<std::string> failures;         // "file: group: case"
  std::map<std::string, std::string> notes;  // why a case failed, when its schema did not compile
};

bool ReadJson(const fs::path& path, json& out) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  out = json::parse(text.str(), nullptr, false);
  return in.good() || in.eof() ? !out.is_discarded() : false;
}

JsonSchema::DocumentStore LoadRemotes(const fs::path& remotes) {
  JsonSchema::DocumentStore store;
  for (const auto& entry : fs::recursive_directory_iterator(remotes)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".json") continue;
    json document;
    if (ReadJson(entry.path(), document)) {
      store["http://localhost:1234/" + fs::relative(entry.path(), remotes).generic_string()] =
          document;
    }
  }
  return store;
}

std::vector<fs::path> SuiteFiles(const fs::path& directory) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(directory)) {
    if (entry.is_regular_file() && entry.path().extension() == ".json") {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

void RunFile(const fs::path& file, const std::string& name, Draft draft,
             const JsonSchema::DocumentStore& remotes, Tally& tally, DraftRun& run) {
  json groups;
  if (!ReadJson(file, groups) || !groups.is_array()) {
    run.failures.push_back(name + ": cannot be read");
    ++tally.failed;
    return;
  }
  for (const json& group : groups) {
    const std::string prefix = name + ": " + group.value("description", "?") + ": ";
    JsonSchema::Options policy;
    policy.default_draft = draft;
    ++run.schemas;
    if (auto refused = JsonSchema::Compile(group["schema"], policy); !refused) {
      ++run.schemas_refused;
      if (std::getenv("SHOW_POLICY") != nullptr) {
        std::cout << "  policy refuses " << prefix << ToString(refused.error().front()) << "\n";
      }
    }
    JsonSchema::Options raw = policy;
    raw.keyword_policy = false;
    raw.documents = &remotes;
    auto schema = JsonSchema::Compile(group["schema"], raw);
    for (const json& test : group["tests"]) {
      const std::string id = prefix + test.value("description", "?");
      bool passed = false;
      if (schema) {
        const bool valid = schema->Validate(test["data"]).empty();
        passed = valid == test.value("valid", false);
      }
      if (passed) {
        ++tally.passed;
      } else {
        ++tally.failed;
        run.failures.push_back(id);
        if (!schema) {
          run.notes[id] = "schema refused: " + ToString(schema.error().front());
        } else if (const auto violations = schema->Validate(test["data"]); !violations.empty()) {
          run.notes[id] = "said invalid: " + ToString(violations.front());
        } else {
          run.notes[id] = "said valid";
        }
      }
    }
  }
}

std::set<std::string> ReadExpected(const fs::path& path) {
  std::set<std::string> expected;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line[0] != '#') expected.insert(line);
  }
  return expected;
}

void WriteExpected(const fs::path& path, const std::string& draft, const DraftRun& run) {
  std::ofstream out(path);
  out << "# The JSON-Schema-Test-Suite 2.0.0 cases valijson 1.0 fails in " << draft
      << " (tests/discovery/schema/test_suite_runner.cpp).\n"
      << "# One case a line: file: group: case. docs/schema.md explains them. The test fails\n"
      << "# when a case fails that is not listed here, or a listed case passes.\n";
  std::vector<std::string> sorted = run.failures;
  std::sort(sorted.begin(), sorted.end());
  for (const std::string& failure : sorted) out << failure << "\n";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: test_suite_runner SUITE_DIR EXPECTED_DIR [--write-expected]\n";
    return 2;
  }
  const fs::path suite = argv[1], expected_dir = argv[2];
  const bool write = argc > 3 && std::string(argv[3]) == "--write-expected";
  if (!fs::is_directory(suite / "tests")) {
    std::cerr << suite.string()
              << "/tests not found: run .ci/fetch-debs, which unpacks json-schema-test-suite "
                 "2.0.0-1.1 into build/deps/\n";
    return 1;
  }
  const JsonSchema::DocumentStore remotes = LoadRemotes(suite / "remotes");
  int status = 0;
  for (auto [draft_name, draft] :
       {std::pair{"draft4", Draft::kDraft4}, {"draft7", Draft::kDraft7}}) {
    DraftRun run;
    const fs::path directory = suite / "tests" / draft_name;
    for (const fs::path& file : SuiteFiles(directory)) {
      const std::string name = fs::relative(file, directory).generic_string();
      const bool optional = name.starts_with("optional/");
      RunFile(file, name, draft, remotes, optional ? run.optional : run.required, run);
    }
    const fs::path expected_file =
        expected_dir / ("expected_failures_" + std::string(draft_name) + ".txt");
    if (write) WriteExpected(expected_file, draft_name, run);
    const std::set<std::string> expected = ReadExpected(expected_file);
    const std::set<std::string> failed(run.failures.begin(), run.failures.end());
    std::cout << draft_name << ": " << run.required.passed << "/"
              << run.required.passed + run.required.failed << " passed, " << run.required.failed
              << " failed; optional/: " << run.optional.passed << "/"
              << run.optional.passed + run.optional.failed << " passed, " << run.optional.failed
              << " failed; the keyword policy refuses " << run.schemas_refused << " of "
              << run.schemas << " test schemas\n";
    for (const std::string& failure : run.failures) {
      std::cout << "  " << (expected.contains(failure) ? "expected failure: " : "FAILED: ")
                << failure << "\n";
      if (auto note = run.notes.find(failure); note != run.notes.end()) {
        std::cout << "      (" << note->second << ")\n";
      }
    }
    for (const std::string& listed : expected) {
      if (!failed.contains(listed)) {
        std::cout << "  LISTED BUT PASSES (or gone; remove it from " << expected_file.filename()
                  << "): " << listed << "\n";
        status = 1;
      }
    }
    for (const std::string& failure : failed) {
      if (!expected.contains(failure)) status = 1;
    }
  }
  std::cout << (status == 0 ? "every failure is an expected one\n"
                            : "unexpected results: see FAILED and LISTED lines above\n");
  return status;
}
