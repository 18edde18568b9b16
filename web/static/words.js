// The pages' words in the visitor's language (web/words.py chooses it; web/locale holds them).
// Every message is English in the code, in t("...") or N_("..."), which `python -m ui.catalogues`
// collects; an element marked data-t (data-t-label) has its text (aria-label) translated with them.
"use strict";
const N_ = message => message;  // marks a message for translation; t() translates it where shown
const COLOUR_NAMES = { R: N_("Red"), Y: N_("Yellow"), G: N_("Green"), B: N_("Blue") };
// A Doubles team by its colour: one message each, so a language's colour agrees with its word for
// team ("Équipe verte"), as the kiosk's (ui/words.py TEAM_NAMES) do.
const TEAM_NAMES = { R: N_("Red team"), Y: N_("Yellow team"), G: N_("Green team"), B: N_("Blue team") };
const LEVEL_NAMES = { beginner: N_("Beginner"), casual: N_("Casual"), club: N_("Club"), expert: N_("Expert"),
                      master: N_("Master") };
const MODE_NAMES = { strategy: N_("Tantrix"), gobbles: N_("Gobbles"), "gobble-solo": N_("Gobble solo"),
                     solitaire: N_("Solitaire"), tanagra: N_("Tanagra"), puzzle: N_("Puzzles"),
                     rotation: N_("Great Pyramid"), "four-lines": N_("Four lines"), "four-loops": N_("Four loops") };
const DEVICE_NAMES = { button: N_("Bag button"), reader: N_("Tile reader"), rings: N_("LED rings"),
                       storage: N_("Saving games") };
const PICKED = "tantrix-language";  // the visitor's own choice, kept by their browser
let pageWords = {};
let pageLanguage = "en";
let pageLanguages = { en: "English" };  // each language the table speaks, by its own name

// `message` in the page's language, its {fields} filled in from `fields`.
function t(message, fields) {
  const said = pageWords[message] || message;
  return said.replace(/\{(\w+)\}/g, (whole, name) => (fields && name in fields ? String(fields[name]) : whole));
}

// A colour, a robot level or a game mode by its name in the page's language (a key unknown to this
// page as it is: an older page seeing a newer kiosk).
function named(names, key) {
  return names[key] ? t(names[key]) : String(key);
}

// A colour as the seats playing it are named: "Red", or in Doubles, where the partners opposite share
// it, "Red team" (as the kiosk names them). Every page names a seat or a score's colour with it.
function colourName(colour, doubles) {
  return named(doubles ? TEAM_NAMES : COLOUR_NAMES, colour);
}

let redraw = () => {};  // the page's own drawing, again in a newly picked language (words.js calls it)

function picked() {
  try { return localStorage.getItem(PICKED); } catch { return null; }  // storage refused: the browser's choice
}

// Fetches the words of `choice` (else of the browser's languages) and translates the page with them.
async function loadWords(choice) {
  try {
    const response = await fetch("/api/words", choice ? { headers: { "accept-language": choice } } : {});
    if (response.ok) {
      const answer = await response.json();
      pageWords = answer.words;
      pageLanguage = answer.language;
      pageLanguages = answer.languages;
      showPicker();
    }
  } catch { /* the table cannot answer now: the page stays in the words it has */ }
  document.documentElement.lang = pageLanguage;
  // data-t marks an element's text, data-t-label its aria-label; each keeps the English message, so
  // the page can be translated again into another language
  for (const element of document.querySelectorAll("[data-t]")) {
    if (!element.dataset.t) element.dataset.t = element.textContent.trim().replace(/\s+/g, " ");
    element.textContent = t(element.dataset.t);
  }
  for (const element of document.querySelectorAll("[data-t-label]")) {
    if (!element.dataset.tLabel) element.dataset.tLabel = element.getAttribute("aria-label");
    element.setAttribute("aria-label", t(element.dataset.tLabel));
  }
  redraw();
}

// The header's language picker: a choice is kept in this browser and the page redrawn in it.
function showPicker() {
  const picker = document.getElementById("page-language");
  if (!picker || !picker.hidden) return;
  picker.replaceChildren(...Object.entries(pageLanguages).map(([code, name]) => new Option(name, code)));
  picker.value = pageLanguage;
  picker.hidden = false;
  picker.addEventListener("change", () => {
    try { localStorage.setItem(PICKED, picker.value); } catch { /* not kept: this page only */ }
    loadWords(picker.value);
  });
}

const wordsReady = loadWords(picked());
