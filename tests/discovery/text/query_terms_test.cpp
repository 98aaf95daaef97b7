// QueryTerms (discovery/text/query_terms.h): a query's distinct terms, the last completed, and
// how a skill's sorted terms match them.
#include "discovery/text/query_terms.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "discovery/text/analyzer.h"

namespace skillnode::discovery::text {
namespace {

using Strings = std::vector<std::string>;

TEST_CASE("a query's terms are distinct, in order, with the last word analysed last", "[unit]") {
  CHECK(QueryTerms(Strings{"pdf", "summar", "pdf"}).terms() == Strings{"summar", "pdf"});
  CHECK(QueryTerms(Strings{"pdf", "summar", "summar"}).terms() == Strings{"pdf", "summar"});
  CHECK(QueryTerms(Strings{}).empty());
  const QueryTerms query(Strings{"a", "b"});
  CHECK_FALSE(query.IsPrefix(0));
  CHECK(query.IsPrefix(1));
}

TEST_CASE("a skill's distinct terms are those of all its fields, sorted", "[unit]") {
  FieldedTerms terms;
  terms.fields[Index(Field::kName)] = {"pdf", "summar"};
  terms.fields[Index(Field::kDescription)] = {"summar", "file", "pdf"};
  terms.fields[Index(Field::kScenes)] = {"办公"};
  CHECK(DistinctTerms(terms) == Strings{"file", "pdf", "summar", "办公"});
}

TEST_CASE("every query term must be held, only the last also as a prefix", "[unit]") {
  const Strings record = {"calendar", "feishu", "meet"};
  CHECK(QueryTerms(Strings{"feishu", "calen"}).AllMatched(record));
  CHECK(*QueryTerms(Strings{"feishu", "calen"}).MatchIn(1, record) == "calendar");
  // "calen" is not last: it must be whole.
  CHECK_FALSE(QueryTerms(Strings{"calen", "feishu"}).AllMatched(record));
  CHECK(QueryTerms(Strings{"calen", "feishu"}).CountMatched(record) == 1);
  CHECK_FALSE(QueryTerms(Strings{"feishu", "zoom"}).AllMatched(record));
  CHECK(QueryTerms(Strings{}).AllMatched(record));
}

TEST_CASE("the whole term is preferred to a completion, and the first completion byte-wise",
          "[unit]") {
  const QueryTerms query(Strings{"cal"});
  CHECK(*query.MatchIn(0, Strings{"cal", "calendar"}) == "cal");
  CHECK(*query.MatchIn(0, Strings{"calculator", "calendar"}) == "calculator");
  CHECK_FALSE(query.MatchIn(0, Strings{"ca", "scal"}).has_value());
}

TEST_CASE("a term matches through an alternative given to it, after the term itself", "[unit]") {
  QueryTerms query(Strings{"calender", "feishu"});
  CHECK_FALSE(query.AllMatched(Strings{"calendar", "feishu"}));
  query.AddAlternative(0, "calendar");
  query.AddAlternative(0, "calendar");  // once
  query.AddAlternative(0, "calender");  // the term itself is not an alternative
  CHECK(query.alternatives(0) == Strings{"calendar"});
  CHECK(query.AllMatched(Strings{"calendar", "feishu"}));
  CHECK(*query.MatchIn(0, Strings{"calendar", "calender"}) == "calender");
}

TEST_CASE("a query is analysed as a record's fields are", "[unit]") {
  transport::Result<Analyzer> analyzer = Analyzer::Create();
  REQUIRE(analyzer.has_value());
  CHECK(QueryTerms::Of(*analyzer, "Summarising the PDFs").terms() == Strings{"summar", "pdf"});
  CHECK(QueryTerms::Of(*analyzer, "  !!! 🎉 ").empty());
}

TEST_CASE("each query term keeps its surface word, the last term the last word's", "[unit]") {
  transport::Result<Analyzer> analyzer = Analyzer::Create();
  REQUIRE(analyzer.has_value());
  const QueryTerms query = QueryTerms::Of(*analyzer, "summarize feishu calender summarises");
  CHECK(query.terms() == Strings{"feishu", "calend", "summar"});
  CHECK(query.surface(0) == "feishu");
  CHECK(query.surface(1) == "calender");
  CHECK(query.surface(2) == "summarises");  // the word being typed
  CHECK(QueryTerms(Strings{"pdf"}).surface(0) == "pdf");
}

}  // namespace
}  // namespace skillnode::discovery::text
