// Small SVG charts drawn here (no library): a line over time and a bar per bucket. Labels
// are text nodes; each chart has a text summary for screen readers (role="img" + label).

const kSvg = 'http://www.w3.org/2000/svg';
const kWidth = 320;
const kHeight = 110;
const kPad = {left: 44, right: 8, top: 8, bottom: 20};

function svgEl(tag, attrs = {}, text) {
  const node = document.createElementNS(kSvg, tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

function frame(label) {
  return svgEl('svg', {viewBox: `0 0 ${kWidth} ${kHeight}`, role: 'img', 'aria-label': label,
                       class: 'chart', preserveAspectRatio: 'xMidYMid meet'});
}

function niceMax(value) {
  if (!(value > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (value <= step * power) return step * power;
  return 10 * power;
}

function format(value) {
  if (Math.abs(value) >= 1000) return `${(value / 1000).toFixed(1)}k`;
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

function axes(svg, max) {
  const plotBottom = kHeight - kPad.bottom;
  svg.append(svgEl('line', {x1: kPad.left, y1: plotBottom, x2: kWidth - kPad.right,
                            y2: plotBottom, class: 'axis'}));
  svg.append(svgEl('line', {x1: kPad.left, y1: kPad.top, x2: kPad.left, y2: plotBottom,
                            class: 'axis'}));
  svg.append(svgEl('text', {x: kPad.left - 4, y: kPad.top + 8, class: 'tick', 'text-anchor': 'end'}, format(max)));
  svg.append(svgEl('text', {x: kPad.left - 4, y: plotBottom, class: 'tick', 'text-anchor': 'end'}, '0'));
}

// points: [{t: ms, v: number}], oldest first; spanMs: the time the x axis covers.
export function lineChart(label, points, spanMs, unit) {
  const last = points.length ? points[points.length - 1].v : null;
  const svg = frame(`${label}: ${last === null ? 'no data yet' : `${format(last)} ${unit} now`}`);
  const max = niceMax(Math.max(0, ...points.map((p) => p.v)));
  axes(svg, max);
  const plotWidth = kWidth - kPad.left - kPad.right;
  const plotHeight = kHeight - kPad.top - kPad.bottom;
  const end = points.length ? points[points.length - 1].t : 0;
  const xy = points.map((p) => {
    const x = kPad.left + plotWidth * (1 - Math.min(1, (end - p.t) / spanMs));
    const y = kPad.top + plotHeight * (1 - p.v / max);
    return `${x.toFixed(1)},${y.toFixed(1)}`;
  });
  if (xy.length) svg.append(svgEl('polyline', {points: xy.join(' '), class: 'series'}));
  svg.append(svgEl('text', {x: kPad.left, y: kHeight - 4, class: 'tick'},
                   `last ${Math.round(spanMs / 60000)} min`));
  svg.append(svgEl('text', {x: kWidth - kPad.right, y: kHeight - 4, class: 'tick',
                            'text-anchor': 'end'}, last === null ? '' : `${format(last)} ${unit}`));
  return svg;
}

// bars: [{label, v}] in order.
export function barChart(label, bars) {
  const svg = frame(`${label}: ${bars.filter((b) => b.v > 0).map((b) => `${b.label}: ${b.v}`).join(', ') || 'empty'}`);
  const max = niceMax(Math.max(0, ...bars.map((b) => b.v)));
  axes(svg, max);
  const plotWidth = kWidth - kPad.left - kPad.right;
  const plotHeight = kHeight - kPad.top - kPad.bottom;
  const step = bars.length ? plotWidth / bars.length : plotWidth;
  bars.forEach((bar, i) => {
    const h = plotHeight * (bar.v / max);
    svg.append(svgEl('rect', {x: (kPad.left + i * step + 1).toFixed(1),
                              y: (kPad.top + plotHeight - h).toFixed(1),
                              width: Math.max(1, step - 2).toFixed(1), height: h.toFixed(1),
                              class: 'bar'}));
    if (bars.length <= 40 && (i % Math.ceil(bars.length / 10) === 0)) {
      svg.append(svgEl('text', {x: (kPad.left + i * step + step / 2).toFixed(1), y: kHeight - 4,
                                class: 'tick', 'text-anchor': 'middle'}, bar.label));
    }
  });
  return svg;
}
