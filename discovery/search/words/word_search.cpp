// WordSearch: reads a query's terms, corrects and completes them, intersects their pointers,
// fetches and checks the best candidates' records and ranks them (word_search.h).
#include "discovery/search/words/word_search.h"

#include <algorithm>
#include <cassert>
#include <string>
#include <utility>

#include "discovery/search/words/query_reads.h"
#include "discovery/search/words/word_candidates.h"
#include "discovery/text/text_match.h"
#include "kademlia/wire/wire.h"

namespace skillnode::discovery::search {

using kademlia::store::SignedRecordPtr;

namespace {

enum class Stage { kReading, kReadingFurther, kFetching, kDone };

// Adds the last term's completions to its reads: of the term, then of its word as typed.
void AddCompletions(VocabularyFeed& vocabulary, size_t completions_max, TermReads& state,
                    const std::string& term, const std::string& word) {
  // The stems that begin with the term, then the stems of the words that begin with the word
  // as typed ("summari" is not a prefix of the stem "summar", but of the word "summarize").
  size_t added = 0;
  for (std::string& completion : vocabulary.vocabulary().Complete(term, completions_max + 1)) {
    if (added == completions_max) break;
    if (completion != term && state.Add(std::move(completion), false)) ++added;
  }
  for (std::string& stem : vocabulary.WordCompletions(word, completions_max)) {
    if (!stem.starts_with(term)) state.Add(std::move(stem), true);
  }
}

// A further read keeps what the term's probe found besides: a filtered one lists only the
// pointers whose profile holds the other words, and a skill it hides may still match them (a
// pointer of a publisher without profiles, credited from its text; a longer word beginning with
// the last word as typed).
void KeepProbed(TermReading& further, const TermReading& probe) {
  for (const kademlia::store::TermPointer& pointer : probe.pointers) {
    const kademlia::store::RecordIdentity identity = kademlia::store::IdentityOf(pointer);
    const bool read = std::any_of(
        further.pointers.begin(), further.pointers.end(),
        [&identity](const auto& p) { return kademlia::store::IdentityOf(p) == identity; });
    if (!read) further.pointers.push_back(pointer);
  }
}

}  // namespace

struct WordSearch::Run {
  Run(SkillQuery q, text::TextMatch m, Callback d)
      : query(std::move(q)), match(std::move(m)), done(std::move(d)) {}

  SkillQuery query;
  text::TextMatch match;
  Callback done;
  Stage stage = Stage::kReading;
  QueryReads terms;        // the terms read, the first of the query's
  size_t outstanding = 0;  // reads not answered yet, all terms
  // Candidates to fetch, grouped by record key, in the order of the best of each group.
  std::vector<std::pair<kademlia::Key, std::vector<WordCandidate>>> groups;
  size_t next_group = 0;
  size_t in_flight = 0;
  std::vector<SkillEntryPtr> fetched;
  std::vector<kademlia::store::RecordIdentity> dropped;
  std::vector<kademlia::store::RecordIdentity> passed_over;  // report_passed_over only
};

WordSearch::WordSearch(TermSource& terms, RecordSource& records, VocabularyFeed& vocabulary,
                       WordSearchConfig config)
    : terms_(terms),
      records_(records),
      vocabulary_(vocabulary),
      config_(std::move(config)),
      ranking_(config_.ranking) {}

WordSearch::~WordSearch() = default;

void WordSearch::Search(transport::TimePoint now, const SkillQuery& query, Callback done) {
  ++stats_.searches;
  transport::Result<text::TextMatch> match = text::TextMatch::Create(query.text);
  assert(match.has_value());  // the default language is always there
  auto run = std::make_shared<Run>(query, std::move(*match), std::move(done));
  const text::QueryTerms& terms = run->match.query();
  const size_t read = std::min(terms.size(), config_.terms_per_query_max);
  run->terms = QueryReads(read);
  for (size_t i = 0; i < read; ++i) {
    TermReads& state = run->terms[i];
    state.lookups.push_back(TermLookup(terms.terms()[i]));
    if (terms.IsPrefix(i)) {
      AddCompletions(vocabulary_, config_.completions_max, state, terms.terms()[i],
                     terms.surface(i));
    }
    state.outstanding = state.lookups.size();
    run->outstanding += state.outstanding;
  }
  if (read == 0) {
    Finish(now, run);
    return;
  }
  // Counted above before any read: a source may answer before ReadTerm returns, and a term's
  // corrections join its lookups then (they are read by Correct, not here).
  std::vector<size_t> probes(read);
  for (size_t i = 0; i < read; ++i) probes[i] = run->terms[i].lookups.size();
  for (size_t i = 0; i < read; ++i) {
    for (size_t l = 0; l < probes[i]; ++l) Read(now, run, i, l, config_.probe_pointers, {});
  }
}

void WordSearch::Read(transport::TimePoint now, const RunPtr& run, size_t term, size_t lookup,
                      size_t wanted, const std::vector<uint16_t>& with_terms) {
  ++stats_.term_reads;
  std::weak_ptr<int> alive = alive_;
  const std::string name = run->terms[term].lookups[lookup].term;
  terms_.ReadTerm(now, name, wanted, with_terms,
                  [this, alive, run, term, lookup](transport::TimePoint at, TermReading reading) {
                    if (alive.expired()) return;
                    OnRead(run, term, lookup, at, std::move(reading));
                  });
}

void WordSearch::OnRead(const RunPtr& run, size_t term, size_t lookup, transport::TimePoint now,
                        TermReading reading) {
  assert(run->outstanding > 0);
  TermReads& state = run->terms[term];
  TermLookup& read = state.lookups[lookup];
  if (!reading.pointers.empty()) vocabulary_.NoteIndexed(read.term);
  if (read.alternative && !reading.pointers.empty()) {
    run->match.query().AddAlternative(term, read.term);
  }
  if (run->stage == Stage::kReadingFurther) KeepProbed(reading, read.reading);
  read.reading = std::move(reading);
  --state.outstanding;
  --run->outstanding;
  if (state.outstanding == 0 && state.phase == TermPhase::kProbing) {
    Correct(now, run, term);
  } else if (state.outstanding == 0) {
    state.phase = TermPhase::kSettled;
  }
  if (run->outstanding > 0) return;
  if (run->stage == Stage::kReading) {
    AfterReads(now, run);
  } else if (run->stage == Stage::kReadingFurther) {
    Fetch(now, run, BestOf(*run));
  }
}

void WordSearch::Correct(transport::TimePoint now, const RunPtr& run, size_t term) {
  TermReads& state = run->terms[term];
  if (state.HasPointers() || state.AllFailed()) {
    state.phase = TermPhase::kSettled;
    return;
  }
  const std::string missing = state.lookups.front().term;  // a copy: lookups grow below
  const size_t first = state.lookups.size();
  // The stems one edit from the term, then the stems of the words one edit from the word typed
  // (stemming may move a typo further: "calender" is "calend", two edits from "calendar").
  for (std::string& correction :
       vocabulary_.vocabulary().Correct(missing, config_.corrections_max)) {
    state.Add(std::move(correction), true);
  }
  for (std::string& correction :
       vocabulary_.WordCorrections(run->match.query().surface(term), config_.corrections_max)) {
    state.Add(std::move(correction), true);
  }
  const size_t added = state.lookups.size() - first;
  if (added == 0) {
    state.phase = TermPhase::kSettled;
    return;
  }
  state.phase = TermPhase::kCorrecting;
  state.outstanding += added;
  run->outstanding += added;
  stats_.corrections_read += added;
  for (size_t l = first; l < first + added; ++l) {
    Read(now, run, term, l, config_.probe_pointers, {});
  }
}

void WordSearch::AfterReads(transport::TimePoint now, const RunPtr& run) {
  assert(run->stage == Stage::kReading);
  run->stage = Stage::kReadingFurther;
  // The rarest term with pointers bounds the answer: read it further when its probe was cut.
  const std::optional<size_t> rarest_term = run->terms.Rarest();
  if (!rarest_term) {
    Fetch(now, run, BestOf(*run));
    return;
  }
  const size_t term = *rarest_term;
  const TermReads* rarest = &run->terms[term];
  std::vector<size_t> further;
  for (size_t l = 0; l < rarest->lookups.size(); ++l) {
    const TermReading& reading = rarest->lookups[l].reading;
    if (!reading.complete && !reading.failed && reading.pointers.size() >= config_.probe_pointers &&
        reading.pointers.size() < config_.term_pointers_read_max) {
      further.push_back(l);
    }
  }
  std::vector<WordCandidate> best = BestOf(*run);
  if (further.empty() || EnoughCovered(best, run->terms.size())) {
    Fetch(now, run, std::move(best));
    return;
  }
  // Filtered by the other terms: the holders list only the pointers whose records hold them
  // too, so the read reaches past the term's heaviest pointers to the intersection.
  const std::vector<uint16_t> with_terms =
      config_.filtered_reads ? run->terms.FilterFor(term, kademlia::wire::kFindValueTermsMax)
                             : std::vector<uint16_t>{};
  run->terms[term].outstanding += further.size();
  run->outstanding += further.size();
  stats_.further_reads += further.size();
  if (!with_terms.empty()) stats_.filtered_reads += further.size();
  for (const size_t l : further)
    Read(now, run, term, l, config_.term_pointers_read_max, with_terms);
}

std::vector<WordCandidate> WordSearch::BestOf(Run& run) const {
  return run.terms.Candidates(run.match, config_.ranking.bm25.k1)
      .Best(config_.candidates_fetched_max);
}

bool WordSearch::EnoughCovered(const std::vector<WordCandidate>& best, size_t terms) const {
  const auto covering = std::count_if(best.begin(), best.end(), [terms](const WordCandidate& c) {
    return c.terms_covered == terms;
  });
  return static_cast<size_t>(covering) >= config_.candidates_fetched_max;
}

void WordSearch::Fetch(transport::TimePoint now, const RunPtr& run,
                       std::vector<WordCandidate> best) {
  assert(run->stage == Stage::kReadingFurther);
  run->stage = Stage::kFetching;
  if (config_.report_passed_over) {
    const WordCandidates all = run->terms.Candidates(run->match, config_.ranking.bm25.k1);
    for (WordCandidate& candidate : all.Best(all.size())) {
      const bool fetched = std::any_of(best.begin(), best.end(), [&candidate](const auto& b) {
        return b.identity == candidate.identity;
      });
      if (!fetched) run->passed_over.push_back(std::move(candidate.identity));
    }
  }
  for (WordCandidate& candidate : best) {
    auto it = std::find_if(run->groups.begin(), run->groups.end(),
                           [&candidate](const auto& g) { return g.first == candidate.record_key; });
    if (it == run->groups.end()) {
      run->groups.emplace_back(candidate.record_key, std::vector<WordCandidate>{});
      it = run->groups.end() - 1;
    }
    it->second.push_back(std::move(candidate));
  }
  Pump(now, run);
}

void WordSearch::Pump(transport::TimePoint now, const RunPtr& run) {
  while (run->stage == Stage::kFetching && run->in_flight < config_.gets_in_flight_max &&
         run->next_group < run->groups.size()) {
    const size_t group = run->next_group++;
    ++run->in_flight;
    ++stats_.record_gets;
    std::weak_ptr<int> alive = alive_;
    records_.GetRecords(
        now, run->groups[group].first,
        [this, alive, run, group](transport::TimePoint at, std::vector<SignedRecordPtr> records,
                                  bool failed) {
          if (alive.expired()) return;
          OnRecords(run, group, at, records, failed);
        });
  }
  if (run->stage == Stage::kFetching && run->in_flight == 0 &&
      run->next_group == run->groups.size()) {
    Finish(now, run);
  }
}

void WordSearch::OnRecords(const RunPtr& run, size_t group, transport::TimePoint now,
                           const std::vector<SignedRecordPtr>& records, bool failed) {
  assert(run->in_flight > 0);
  --run->in_flight;
  for (const WordCandidate& candidate : run->groups[group].second) {
    auto it = std::find_if(records.begin(), records.end(), [&candidate](const auto& r) {
      return r != nullptr && kademlia::store::IdentityOf(r->record) == candidate.identity;
    });
    // Missing (or unreadable), a tombstone, or only another publisher's record of the skill.
    if (failed || it == records.end() || (*it)->record.tombstone) {
      ++stats_.candidates_dropped;
      run->dropped.push_back(candidate.identity);
      continue;
    }
    const kademlia::store::SkillRecord& record = (*it)->record;
    vocabulary_.NoteRecord(record);
    if (MatchesExceptText(run->query, record)) run->fetched.push_back(SkillEntry::Make(record));
  }
  Pump(now, run);
}

void WordSearch::Finish(transport::TimePoint now, const RunPtr& run) {
  if (run->stage == Stage::kDone) return;
  run->stage = Stage::kDone;
  WordAnswer answer;
  answer.failed = run->terms.AllFailed();
  // Every word must match, as in the local and LAN stages (Matches): a record holding some of
  // them was fetched only as a lead (and taught the vocabulary its words). The records holding
  // every word are ranked among themselves, so that the leads weigh nothing in the terms' idf
  // and the fields' average lengths: the order is the one those records would have on their own.
  const size_t terms = run->match.query().size();
  std::vector<SkillEntryPtr> holding;
  for (ScoredEntry& scored : ranking_.Rank(run->match, std::move(run->fetched))) {
    if (scored.score.terms_matched == terms) holding.push_back(std::move(scored.entry));
  }
  answer.hits = ranking_.Rank(run->match, std::move(holding));
  answer.terms = run->match.query();
  answer.dropped = std::move(run->dropped);
  answer.passed_over = std::move(run->passed_over);
  Callback done = std::move(run->done);
  run->done = nullptr;
  done(now, std::move(answer));
}

}  // namespace skillnode::discovery::search
