// StopWords: Snowball's stop word lists as data, and the drop-unless-all rule.
#include "discovery/text/stop_words.h"

#include <algorithm>
#include <utility>

#include "discovery/text/tokenizer.h"

namespace skillnode::discovery::text {
namespace {

struct LanguageList {
  std::string_view language;
  std::string_view words;  // separated by spaces
};

// Snowball's english/stop.txt, its contractions as the Tokenizer splits them.
constexpr std::string_view kEnglish =
    "i me my myself we our ours ourselves you your yours yourself yourselves he him his himself "
    "she her hers herself it its itself they them their theirs themselves what which who whom "
    "this that these those am is are was were be been being have has had having do does did "
    "doing would should could ought a an the and but if or because as until while of at by for "
    "with about against between into through during before after above below to from up down in "
    "out on off over under again further then once here there when where why how all any both "
    "each few more most other some such no nor not only own same so than too very cannot "
    "s t m d re ve ll isn aren wasn weren hasn haven hadn doesn didn wouldn shan shouldn couldn "
    "mustn";

// Snowball's german/stop.txt.
constexpr std::string_view kGerman =
    "aber alle allem allen aller alles als also am an ander andere anderem anderen anderer "
    "anderes anderm andern anderr anders auch auf aus bei bin bis bist da damit dann der den des "
    "dem die das daß derselbe derselben denselben desselben demselben dieselbe dieselben "
    "dasselbe dazu dein deine deinem deinen deiner deines denn derer dessen dich dir du dies "
    "diese diesem diesen dieser dieses doch dort durch ein eine einem einen einer eines einig "
    "einige einigem einigen einiger einiges einmal er ihn ihm es etwas euer eure eurem euren "
    "eurer eures für gegen gewesen hab habe haben hat hatte hatten hier hin hinter ich mich mir "
    "ihr ihre ihrem ihren ihrer ihres euch im in indem ins ist jede jedem jeden jeder jedes jene "
    "jenem jenen jener jenes jetzt kann kein keine keinem keinen keiner keines können könnte "
    "machen man manche manchem manchen mancher manches mein meine meinem meinen meiner meines "
    "mit muss musste nach nicht nichts noch nun nur ob oder ohne sehr sein seine seinem seinen "
    "seiner seines selbst sich sie ihnen sind so solche solchem solchen solcher solches soll "
    "sollte sondern sonst über um und uns unsere unserem unseren unser unseres unter viel vom "
    "von vor während war waren warst was weg weil weiter welche welchem welchen welcher welches "
    "wenn werde werden wie wieder will wir wird wirst wo wollen wollte würde würden zu zum zur "
    "zwar zwischen";

// Snowball's french/stop.txt.
constexpr std::string_view kFrench =
    "au aux avec ce ces dans de des du elle en et eux il ils je la le les leur lui ma mais me "
    "même mes moi mon ne nos notre nous on ou par pas pour qu que qui sa se ses son sur ta te tes "
    "toi ton tu un une vos votre vous c d j l à m n s t y été étée étées étés étant étante "
    "étants étantes suis es est sommes êtes sont serai seras sera serons serez seront serais "
    "serait serions seriez seraient étais était étions étiez étaient fus fut fûmes fûtes furent "
    "sois soit soyons soyez soient fusse fusses fût fussions fussiez fussent ayant ayante "
    "ayantes ayants eu eue eues eus ai as avons avez ont aurai auras aura aurons aurez auront "
    "aurais aurait aurions auriez auraient avais avait avions aviez avaient eut eûmes eûtes "
    "eurent aie aies ait ayons ayez aient eusse eusses eût eussions eussiez eussent";

constexpr LanguageList kLists[] = {
    {"english", kEnglish},
    {"german", kGerman},
    {"french", kFrench},
};

}  // namespace

StopWords::StopWords(std::string_view words) {
  for (Term& term : Tokenizer().Tokenize(words)) words_.insert(std::move(term.text));
}

StopWords StopWords::ForLanguage(std::string_view language) {
  for (const LanguageList& list : kLists) {
    if (list.language == language) return StopWords(list.words);
  }
  return StopWords(std::string_view());
}

std::vector<std::string> StopWords::Languages() {
  std::vector<std::string> languages;
  for (const LanguageList& list : kLists) languages.emplace_back(list.language);
  return languages;
}

std::vector<Term> StopWords::Filter(std::vector<Term> terms) const {
  const bool all_stop_words = std::all_of(terms.begin(), terms.end(),
                                          [this](const Term& term) { return Contains(term.text); });
  if (all_stop_words) return terms;
  std::erase_if(terms, [this](const Term& term) { return Contains(term.text); });
  return terms;
}

}  // namespace skillnode::discovery::text
