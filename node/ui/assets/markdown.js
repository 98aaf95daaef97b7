// SKILL.md rendered as HTML: marked (Debian's node-marked 4.2.3) turns Markdown into HTML,
// and DOMPurify (Debian's node-dompurify 2.4.1) keeps only harmless elements of it.
// - HTML written in the SKILL.md itself is shown as text, never parsed: even parsed in
//   DOMPurify's inert document, a publisher's inline handlers and styles would make the
//   browser report CSP violations, and Agent Skills' SKILL.md files are Markdown.
// - Images are shown as their alt text: the CSP allows images from the node only, and a
//   publisher's image could track readers.
// - On top of DOMPurify's defaults: no style, form or embedding elements, no style
//   attributes, and links only to absolute http(s) URLs, opened without a referrer.

const kSanitizeOptions = {
  FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'img', 'svg', 'math'],
  FORBID_ATTR: ['style', 'srcset', 'action', 'formaction'],
  ALLOW_DATA_ATTR: false,
  RETURN_DOM_FRAGMENT: true,
};

let hooked = false;

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({'&': '&amp;', '<': '&lt;', '>': '&gt;',
                                                    '"': '&quot;', "'": '&#39;'}[c]));
}

const kRenderer = {
  html: (html) => escapeHtml(html),
  image: (href, title, text) => escapeHtml(`[image: ${text || ''}]`),
};

function addHooks(purify) {
  purify.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName !== 'A') return;
    const href = node.getAttribute('href');
    let safe = null;
    try {
      const url = new URL(href);
      if (url.protocol === 'http:' || url.protocol === 'https:') safe = url.href;
    } catch {
      safe = null;
    }
    if (safe) {
      node.setAttribute('href', safe);
      node.setAttribute('rel', 'noopener noreferrer nofollow');
    } else {
      node.removeAttribute('href');
    }
    node.removeAttribute('target');
  });
}

// The Markdown after a YAML front matter block (--- ... --- at the very start, a byte order
// mark allowed before it); the front matter is not Markdown and shows in the raw view.
export function withoutFrontMatter(text) {
  const match = /^\uFEFF?---\r?\n[\s\S]*?\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  return match ? text.slice(match[0].length) : text;
}

// A DocumentFragment of the sanitised rendering, or null when a library is missing.
export function renderMarkdown(text) {
  const purify = window.DOMPurify;
  const marked = window.marked;
  if (!purify || !marked || !purify.isSupported) return null;
  if (!hooked) {
    addHooks(purify);
    marked.use({renderer: kRenderer});
    hooked = true;
  }
  const html = marked.parse(withoutFrontMatter(text), {mangle: false, headerIds: false});
  return purify.sanitize(html, kSanitizeOptions);
}
