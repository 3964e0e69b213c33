#include "demos/weft/bench_plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

namespace weft {
namespace {

struct Point {
  double particles, ms;
};

std::string escaped(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string fixed(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", v);
  return text;
}

// Decades [lo, hi] covering the values, at least one decade wide.
void decades(double minValue, double maxValue, int& lo, int& hi) {
  lo = static_cast<int>(std::floor(std::log10(minValue)));
  hi = static_cast<int>(std::ceil(std::log10(maxValue)));
  if (hi <= lo) hi = lo + 1;
}

std::string decadeLabel(int k) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", std::pow(10.0, k));
  return text;
}

}  // namespace

std::string benchPlotSvg(const std::vector<BenchRow>& rows) {
  // Series in the order they first appear.
  std::vector<std::string> names;
  std::map<std::string, std::vector<Point>> series;
  for (const BenchRow& r : rows) {
    if (!r.notRun.empty()) continue;
    const double ms = r.gpuMsPerStep ? *r.gpuMsPerStep : r.wallMsPerStep;
    if (!(ms > 0) || r.particles == 0) continue;
    const std::string name = r.integrator + " " + r.backend;
    if (!series.count(name)) names.push_back(name);
    series[name].push_back({double(r.particles), ms});
  }
  const double width = 720, height = 440, left = 80, right = 190, top = 30, bottom = 60;
  const double plotW = width - left - right, plotH = height - top - bottom;
  double minX = 1e300, maxX = 0, minY = 1e300, maxY = 0;
  for (auto& [name, points] : series) {
    std::sort(points.begin(), points.end(), [](const Point& a, const Point& b) { return a.particles < b.particles; });
    for (const Point& p : points) {
      minX = std::min(minX, p.particles), maxX = std::max(maxX, p.particles);
      minY = std::min(minY, p.ms), maxY = std::max(maxY, p.ms);
    }
  }
  if (series.empty()) minX = 1, maxX = 10, minY = 1, maxY = 10;
  int x0, x1, y0, y1;
  decades(minX, maxX, x0, x1);
  decades(minY, maxY, y0, y1);
  auto px = [&](double v) { return left + (std::log10(v) - x0) / (x1 - x0) * plotW; };
  auto py = [&](double v) { return top + plotH - (std::log10(v) - y0) / (y1 - y0) * plotH; };

  static const char* colors[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"};
  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
      << "\" viewBox=\"0 0 " << width << " " << height << "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  svg << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  svg << "<text x=\"" << left + plotW / 2 << "\" y=\"18\" text-anchor=\"middle\" font-size=\"14\">weft bench: ms per step</text>\n";
  // Axes, decade ticks and grid lines.
  svg << "<g stroke=\"#ccc\">\n";
  for (int k = x0; k <= x1; ++k)
    svg << "<line x1=\"" << fixed(px(std::pow(10.0, k))) << "\" y1=\"" << top << "\" x2=\""
        << fixed(px(std::pow(10.0, k))) << "\" y2=\"" << top + plotH << "\"/>\n";
  for (int k = y0; k <= y1; ++k)
    svg << "<line x1=\"" << left << "\" y1=\"" << fixed(py(std::pow(10.0, k))) << "\" x2=\"" << left + plotW
        << "\" y2=\"" << fixed(py(std::pow(10.0, k))) << "\"/>\n";
  svg << "</g>\n";
  svg << "<rect x=\"" << left << "\" y=\"" << top << "\" width=\"" << plotW << "\" height=\"" << plotH
      << "\" fill=\"none\" stroke=\"black\"/>\n";
  for (int k = x0; k <= x1; ++k)
    svg << "<text x=\"" << fixed(px(std::pow(10.0, k))) << "\" y=\"" << top + plotH + 16
        << "\" text-anchor=\"middle\">" << decadeLabel(k) << "</text>\n";
  for (int k = y0; k <= y1; ++k)
    svg << "<text x=\"" << left - 6 << "\" y=\"" << fixed(py(std::pow(10.0, k)) + 4) << "\" text-anchor=\"end\">"
        << decadeLabel(k) << "</text>\n";
  svg << "<text x=\"" << left + plotW / 2 << "\" y=\"" << height - 15 << "\" text-anchor=\"middle\">particles</text>\n";
  svg << "<text transform=\"translate(20," << top + plotH / 2
      << ") rotate(-90)\" text-anchor=\"middle\">ms per step (GPU time on gpu, wall on cpu)</text>\n";
  // One polyline with its markers per integrator x backend, and the legend.
  for (size_t s = 0; s < names.size(); ++s) {
    const std::string color = colors[s % (sizeof colors / sizeof *colors)];
    const std::vector<Point>& points = series[names[s]];
    svg << "<polyline fill=\"none\" stroke=\"" << color << "\" stroke-width=\"2\" points=\"";
    for (size_t i = 0; i < points.size(); ++i)
      svg << (i ? " " : "") << fixed(px(points[i].particles)) << "," << fixed(py(points[i].ms));
    svg << "\"><title>" << escaped(names[s]) << "</title></polyline>\n";
    for (const Point& p : points)
      svg << "<circle cx=\"" << fixed(px(p.particles)) << "\" cy=\"" << fixed(py(p.ms)) << "\" r=\"3.5\" fill=\""
          << color << "\"/>\n";
    const double ly = top + 10 + 20 * double(s);
    svg << "<line x1=\"" << left + plotW + 15 << "\" y1=\"" << ly << "\" x2=\"" << left + plotW + 40 << "\" y2=\""
        << ly << "\" stroke=\"" << color << "\" stroke-width=\"2\"/>\n";
    svg << "<text x=\"" << left + plotW + 46 << "\" y=\"" << ly + 4 << "\">" << escaped(names[s]) << "</text>\n";
  }
  svg << "</svg>\n";
  return svg.str();
}

}  // namespace weft
