// Every word the page shows comes from the server, in the person's Discord language: GET
// /api/config gives the first ones (before we know who is looking), /api/session and each scene
// the person's own. The page itself holds no sentence.

let words = {};
let lang = "en";

export function useWords(more, language) {
  if (more) words = { ...words, ...more };
  if (more) labelPage();
  if (language) {
    lang = language;
    document.documentElement.lang = language;
  }
}

export function word(key, values = {}) {
  const text = words[key] ?? "";
  return text.replace(/\{(\w+)\}/g, (all, name) => (name in values ? String(values[name]) : all));
}

// A count in the person's grammar: the server sends each plural form the languages need
// ("cards.one", "cards.other"), and the browser's CLDR rules pick one.
export function counted(key, n) {
  const form = new Intl.PluralRules(lang).select(n);
  const text = words[`${key}.${form}`] ?? words[`${key}.other`] ?? "";
  return text.replace("{n}", new Intl.NumberFormat(lang).format(n));
}

/** Fill the page's fixed labels: ``data-word`` elements' text, ``data-label`` elements' names. */
export function labelPage() {
  for (const element of document.querySelectorAll("[data-word]")) {
    element.textContent = word(element.dataset.word);
  }
  for (const element of document.querySelectorAll("[data-label]")) {
    element.setAttribute("aria-label", word(element.dataset.label));
  }
}
