#include "sim/report/plots.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

#include "sim/report/seed_groups.h"
#include "sim/scenario/yaml_reader.h"

extern char** environ;

namespace skillnode::sim::report {
namespace {

// More curves than this make a chart unreadable.
constexpr size_t kCurvesMax = 8;
// Points drawn per CDF curve (quantiles); more only makes the data file bigger.
constexpr size_t kCdfPointsMax = 500;
// noenhanced: key paths hold underscores, which enhanced text would read as subscripts.
constexpr const char* kTerminal = "set terminal pngcairo size 900,600 font 'sans,11' noenhanced\n";

std::string ShortKey(const std::string& path) {
  const size_t dot = path.rfind('.');
  return dot == std::string::npos ? path : path.substr(dot + 1);
}

std::string Label(const PointResult& p, size_t index) {
  std::string label;
  for (const scenario::SweptValue& v : p.swept) {
    label += (label.empty() ? "" : ", ") + ShortKey(v.path) + "=" + v.value;
  }
  return label.empty() ? (index == 0 ? "all lookups" : "point " + std::to_string(index)) : label;
}

std::vector<size_t> ChosenPoints(size_t n) {
  std::vector<size_t> chosen;
  for (size_t i = 0; i < std::min(n, kCurvesMax); ++i) {
    const size_t index = n <= kCurvesMax ? i : i * (n - 1) / (kCurvesMax - 1);
    if (chosen.empty() || chosen.back() != index) chosen.push_back(index);
  }
  return chosen;
}

std::vector<double> Completed(const PointResult& p, bool hops) {
  std::vector<double> values;
  for (const workloads::LookupRecord& r : p.lookups) {
    if (r.status == workloads::LookupStatus::kCompleted)
      values.push_back(hops ? r.hops : r.latency_ms);
  }
  std::sort(values.begin(), values.end());
  return values;
}

// "plot 'file' index 0 ... title 'a', '' index 1 ..." for `titles`.
std::string PlotLine(const std::string& file, const std::vector<std::string>& titles,
                     const std::string& style) {
  std::string line = "plot ";
  for (size_t i = 0; i < titles.size(); ++i) {
    line += (i == 0 ? "'" + file + "'" : ", ''") + " index " + std::to_string(i) + " " + style +
            " title '" + titles[i] + "'";
  }
  return line + "\n";
}

std::string Header(const std::string& png, const std::string& title, const std::string& x,
                   const std::string& y) {
  // reset: each chart starts from gnuplot's defaults, not the previous chart's settings.
  return "reset\n" + std::string(kTerminal) + "set output '" + png + "'\nset title '" + title +
         "'\nset xlabel '" + x + "'\nset ylabel '" + y +
         "'\nset grid\nset key outside right\nset autoscale xfix\nset offsets graph 0.02, "
         "graph 0.02, 0, 0\n";
}

void LatencyCdf(std::ostream& data, std::ostream& script, const std::vector<PointResult>& points) {
  std::vector<std::string> titles;
  for (size_t index : ChosenPoints(points.size())) {
    const auto values = Completed(points[index], false);
    if (values.empty()) continue;
    const size_t step = std::max<size_t>(1, values.size() / kCdfPointsMax);
    for (size_t i = 0; i < values.size(); i += step) {
      data << values[i] << ' ' << static_cast<double>(i + 1) / values.size() << '\n';
    }
    data << values.back() << " 1\n\n\n";
    titles.push_back(Label(points[index], index));
  }
  script << Header("latency_cdf.png", "Lookup latency, CDF", "latency (ms)", "share of lookups");
  if (!titles.empty())
    script << "set yrange [0:1]\n" << PlotLine("latency_cdf.dat", titles, "with lines lw 2");
}

void HopsHistogram(std::ostream& data, std::ostream& script,
                   const std::vector<PointResult>& points) {
  std::vector<std::string> titles;
  for (size_t index : ChosenPoints(points.size())) {
    const auto values = Completed(points[index], true);
    if (values.empty()) continue;
    std::map<int, size_t> counts;
    for (double h : values) ++counts[static_cast<int>(h)];
    for (const auto& [hops, count] : counts) {
      data << hops << ' ' << static_cast<double>(count) / values.size() << '\n';
    }
    data << "\n\n";
    titles.push_back(Label(points[index], index));
  }
  script << Header("hops_histogram.png", "Hops to the closest node", "hops", "share of lookups");
  if (!titles.empty()) {
    script << "set xtics 1\n" << PlotLine("hops_histogram.dat", titles, "with linespoints lw 2");
  }
}

// Lines of (x, value) per series value, for success_vs_<x>, hops_vs_<x> and, when records were
// simulated, availability_vs_<x>. Points that differ only in their seed are one point, their
// mean.
void Sweep(const scenario::ScenarioPlan& plan, const std::vector<PointResult>& points,
           std::ostream& success, std::ostream& hops, std::ostream* availability,
           std::ostream& script) {
  const std::string x = plan.base.plot.x.empty() ? plan.swept.front() : plan.base.plot.x;
  std::string series = plan.base.plot.series;
  if (series.empty()) {
    for (const std::string& key : plan.swept) {
      if (key != x && key != "seed" && series.empty()) series = key;
    }
  }
  struct Mean {
    std::string x;
    double n = 0, success = 0, reached = 0, hops = 0, predicted = 0, messages = 0;
    double available = 0, available_n = 0;
  };
  // Series value -> its x values' means, in the order the sweep lists them.
  std::vector<std::pair<std::string, std::vector<Mean>>> lines;
  for (const PointResult& p : points) {
    std::string value = "all";
    std::string x_value;
    for (const scenario::SweptValue& v : p.swept) {
      if (v.path == series) value = ShortKey(series) + "=" + v.value;
      if (v.path == x) x_value = v.value;
    }
    auto line = std::find_if(lines.begin(), lines.end(),
                             [&](const auto& entry) { return entry.first == value; });
    if (line == lines.end()) line = lines.insert(lines.end(), {value, {}});
    auto mean = std::find_if(line->second.begin(), line->second.end(),
                             [&](const Mean& m) { return m.x == x_value; });
    if (mean == line->second.end()) mean = line->second.insert(line->second.end(), {x_value});
    const auto& s = p.summary;
    mean->n += 1;
    mean->success += s.lookups.success_rate;
    mean->reached += s.lookups.reached_rate;
    mean->hops += s.lookups.hops_mean;
    mean->predicted += s.hops_predicted;
    mean->messages += s.lookups.messages_per_lookup;
    if (s.records_available_rate) {
      mean->available += *s.records_available_rate;
      mean->available_n += 1;
    }
  }
  std::vector<std::string> titles;
  for (const auto& [title, means] : lines) {
    for (const Mean& m : means) {
      success << m.x << ' ' << m.success / m.n << ' ' << m.reached / m.n << '\n';
      hops << m.x << ' ' << m.hops / m.n << ' ' << m.predicted / m.n << ' ' << m.messages / m.n
           << '\n';
      if (availability != nullptr && m.available_n > 0) {
        *availability << m.x << ' ' << m.available / m.available_n << '\n';
      }
    }
    success << "\n\n";
    hops << "\n\n";
    if (availability != nullptr) *availability << "\n\n";
    titles.push_back(title);
  }
  const std::string name = ShortKey(x);
  // Solid: the result holds the closest honest node; dashed: a path reached it.
  std::string held = PlotLine("success.dat", titles, "using 1:2 with linespoints lw 2");
  held.pop_back();
  script << Header("success_vs_" + name + ".png",
                   "Lookup success: result holds the closest honest node (solid), a path "
                   "reached it (dashed)",
                   name, "success rate")
         << "set yrange [0:1.02]\n"
         << held << ", for [i=0:" << titles.size() - 1
         << "] 'success.dat' index i using 1:3 with lines dt 2 lw 2 lc i+1 notitle\n";
  script << Header("hops_vs_" + name + ".png", "Hops: measured (lines) and predicted (dashed)",
                   name, "hops to the closest node");
  if (name == "nodes") script << "set logscale x\n";
  std::string measured = PlotLine("hops.dat", titles, "using 1:2 with linespoints lw 2");
  measured.pop_back();  // the newline: the predicted curves join the same plot command
  script << "set yrange [0:*]\n"
         << measured << ", for [i=0:" << titles.size() - 1
         << "] 'hops.dat' index i using 1:3 with lines dt 2 lw 2 lc i+1 notitle\n";
  if (name == "nodes") script << "unset logscale x\n";
  if (availability != nullptr) {
    // Rates crowd just under 1: let gnuplot fit the range, with a margin above and below.
    script << Header("availability_vs_" + name + ".png", "Records found by gets", name,
                     "records_available_rate")
           << "set autoscale y\nset offsets graph 0.02, graph 0.02, graph 0.1, graph 0.1\n"
           << PlotLine("availability.dat", titles, "with linespoints lw 2");
  }
}

void OverTime(const PointResult& p, std::ostream& data, std::ostream& script) {
  std::map<int64_t, std::pair<size_t, size_t>> minutes;  // minute -> (successes, counted)
  for (const workloads::LookupRecord& r : p.lookups) {
    if (r.status == workloads::LookupStatus::kInterrupted) continue;
    auto& [ok, all] = minutes[static_cast<int64_t>(r.start_s / 60)];
    ok += r.success;
    ++all;
  }
  for (const auto& [minute, counts] : minutes) {
    data << minute << ' ' << static_cast<double>(counts.first) / counts.second << '\n';
  }
  script << Header("success_over_time.png", "Lookup success under churn", "minute", "success rate")
         << "set yrange [0:1.02]\nplot 'success_over_time.dat' with linespoints lw 2 notitle\n";
}

// Heep (2010), "R/Kademlia: Recursive and topology-aware overlay routing", OverSim, N = 5,000
// under Weibull churn: mean lookup latency (ms) against bandwidth (bytes per node per second).
struct PublishedPoint {
  const char* label;
  double bytes_per_s;
  double latency_ms;
};
constexpr PublishedPoint kHeepPoints[] = {{"Heep 2010: iterative Kademlia", 300, 630},
                                          {"Heep 2010: R/Kademlia", 140, 350}};

// Each group of seeds as one point: mean bytes per node per second against the mean Heep
// latency, with their 95 % intervals as error bars; Heep's published points beside them.
void LatencyVsBandwidth(const std::vector<SeedGroup>& groups, std::ostream& data,
                        std::ostream& script) {
  const std::vector<std::string_view>& names = GroupFigureNames();
  const auto at = [&](std::string_view name) {
    return static_cast<size_t>(std::find(names.begin(), names.end(), name) - names.begin());
  };
  const size_t bytes = at("bytes_per_node_per_s");
  const size_t heep = at("heep_latency_ms_mean");
  std::vector<std::string> titles;
  for (const SeedGroup& g : groups) {
    const Estimate& x = g.figures[bytes];
    const Estimate& y = g.figures[heep];
    data << x.mean << ' ' << y.mean << ' ' << x.ci95 << ' ' << y.ci95 << "\n\n\n";
    std::string label;
    for (const scenario::SweptValue& v : g.swept) {
      label += (label.empty() ? "" : ", ") + ShortKey(v.path) + "=" + v.value;
    }
    titles.push_back("skillnode" + (label.empty() ? "" : " " + label) + " (" +
                     std::to_string(g.points.size()) + " seeds)");
  }
  for (const PublishedPoint& p : kHeepPoints) {
    data << p.bytes_per_s << ' ' << p.latency_ms << " 0 0\n\n\n";
    titles.push_back(p.label);
  }
  script << Header("latency_vs_bandwidth.png", "Lookup latency against bandwidth (95 % intervals)",
                   "bytes per node per second (UDP payload)", "mean Heep latency (ms)")
         << "set autoscale\nset xrange [0:*]\nset yrange [0:*]\n"
         << PlotLine("latency_vs_bandwidth.dat", titles, "with xyerrorbars pt 7 ps 1.5 lw 2");
}

transport::Result<bool> RunGnuplot(const std::string& dir) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addchdir_np(&actions, dir.c_str());
  posix_spawn_file_actions_addopen(&actions, 1, "gnuplot.log", O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  char program[] = "gnuplot";
  char script[] = "plots.gp";
  char* argv[] = {program, script, nullptr};
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, program, &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0)
    return transport::Fail(transport::ErrorCode::kNotFound,
                           "cannot run gnuplot (install gnuplot-nox)");
  int status = 0;
  if (waitpid(pid, &status, 0) < 0)
    return transport::Fail(transport::ErrorCode::kIo, "waiting for gnuplot failed");
  if (!WIFEXITED(status))
    return transport::Fail(transport::ErrorCode::kIo, "gnuplot did not exit normally");
  if (WEXITSTATUS(status) == 127)
    return transport::Fail(transport::ErrorCode::kNotFound, "gnuplot is not installed");
  if (WEXITSTATUS(status) != 0) {
    return transport::Fail(transport::ErrorCode::kIo,
                           "gnuplot failed; see " + dir + "/gnuplot.log");
  }
  return true;
}

}  // namespace

transport::Result<std::vector<std::string>> WritePlots(const std::string& dir,
                                                       const scenario::ScenarioPlan& plan,
                                                       const std::vector<PointResult>& points) {
  std::vector<std::string> pngs = {"latency_cdf.png", "hops_histogram.png"};
  {
    std::ofstream script(dir + "/plots.gp", std::ios::trunc);
    std::ofstream cdf(dir + "/latency_cdf.dat", std::ios::trunc);
    std::ofstream hops(dir + "/hops_histogram.dat", std::ios::trunc);
    LatencyCdf(cdf, script, points);
    HopsHistogram(hops, script, points);
    if (!plan.swept.empty()) {
      std::ofstream success(dir + "/success.dat", std::ios::trunc);
      std::ofstream hops_sweep(dir + "/hops.dat", std::ios::trunc);
      const bool records = std::any_of(points.begin(), points.end(), [](const PointResult& p) {
        return p.summary.records_available_rate.has_value();
      });
      std::ofstream availability;
      if (records) availability.open(dir + "/availability.dat", std::ios::trunc);
      Sweep(plan, points, success, hops_sweep, records ? &availability : nullptr, script);
      const std::string x = plan.base.plot.x.empty() ? plan.swept.front() : plan.base.plot.x;
      pngs.push_back("success_vs_" + ShortKey(x) + ".png");
      pngs.push_back("hops_vs_" + ShortKey(x) + ".png");
      if (records) pngs.push_back("availability_vs_" + ShortKey(x) + ".png");
    } else if (plan.base.churn.enabled && !points.empty()) {
      std::ofstream over_time(dir + "/success_over_time.dat", std::ios::trunc);
      OverTime(points.front(), over_time, script);
      pngs.push_back("success_over_time.png");
    }
    const std::vector<SeedGroup> groups = GroupBySeed(plan, points);
    if (!groups.empty()) {
      std::ofstream bandwidth(dir + "/latency_vs_bandwidth.dat", std::ios::trunc);
      LatencyVsBandwidth(groups, bandwidth, script);
      pngs.push_back("latency_vs_bandwidth.png");
    }
    if (!script) return transport::Fail(transport::ErrorCode::kIo, dir + "/plots.gp: cannot write");
  }
  auto ran = RunGnuplot(dir);
  if (!ran) return tl::unexpected(ran.error());
  return pngs;
}

}  // namespace skillnode::sim::report
