// End to end: the responses service's VADER (services/responses/evaluation/sentiment.cc, run
// through build/services/responses/evaluate_text --compound) against the reference package,
// vader-sentiment 1.1.3 (installed into .tools/ by scripts/setup), on generated sentences
// that exercise every rule: negations (also contracted and capitalised), boosters and
// dampeners (also in capitals), "but" clauses, "least", "kind of", idioms, ALL CAPS against
// mixed case, exclamation and question marks, emoticons of the lexicon and punctuation next
// to words. Every compound score must agree to its 4 decimals (the issue asks for 0.01).
//
// node tests/e2e/vader_agreement.js
"use strict";
const path = require("path");
const { execFileSync } = require("child_process");

const root = path.resolve(__dirname, "..", "..");
const vader = require(path.join(root, ".tools", "node_modules", "vader-sentiment"));
const binary = process.env.EVALUATE_TEXT ||
  path.join(root, "build", "services", "responses", "evaluate_text");

// A small deterministic generator (mulberry32), so that every run checks the same sentences.
let seed = 20141;
function random() {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (list) => list[Math.floor(random() * list.length)];

const subjects = ["The app", "Your support team", "The delivery", "This product", "The checkout",
  "The new dashboard", "Our onboarding", "The hotel room", "The course", "Customer service"];
const positives = ["good", "great", "helpful", "friendly", "excellent", "amazing", "fast",
  "reliable", "wonderful", "clean", "easy", "perfect", "fantastic", "nice", "useful"];
const negatives = ["bad", "terrible", "slow", "rude", "broken", "awful", "confusing",
  "horrible", "useless", "disappointing", "buggy", "annoying", "dirty", "ugly", "poor"];
const boosters = ["very", "extremely", "really", "so", "incredibly", "totally", "quite",
  "slightly", "somewhat", "barely", "kind of", "sort of", "kinda", "absolutely", "hardly"];
const negations = ["not", "never", "isn't", "wasn't", "hardly", "without being", "don't seem",
  "Not", "NEVER", "didn't feel", "aint", "cannot be", "seldom"];
const emoticons = [":)", ":(", ":D", "<3", ":-/", ";)", ":P", ":-(", "=)", ":/", "xD", ":'("];
const endings = [".", "!", "!!", "!!!", "!!!!", "!!!!!", "?", "??", "???", "????", "?!", ""];
const fillers = ["honestly", "to be fair", "overall", "in my opinion", "lol", "frankly", "btw"];
const idioms = ["The new feature is the bomb", "yeah right, that was quick",
  "That update was the kiss of death", "We live hand to mouth with these prices",
  "This tool doesn't cut the mustard", "The support was the shit"];

const caps = (w) => (random() < 0.5 ? w.toUpperCase() : w[0].toUpperCase() + w.slice(1));
const builders = [
  () => `${pick(subjects)} is ${pick(boosters)} ${pick([...positives, ...negatives])}${pick(endings)}`,
  () => `${pick(subjects)} is ${pick(negations)} ${pick([...positives, ...negatives])}${pick(endings)}`,
  () => `${pick(subjects)} was ${pick(positives)}, but the ${pick(["price", "wait", "staff"])} was ${pick(negatives)}${pick(endings)}`,
  () => `${pick(subjects)} was ${pick(negatives)} BUT ${pick(["honestly", "overall"])} it is ${pick(positives)}${pick(endings)}`,
  () => `${pick(subjects)} is ${caps(pick(positives))} and ${pick(negatives)}${pick(endings)}`,
  () => `${pick(subjects).toUpperCase()} IS ${pick([...positives, ...negatives]).toUpperCase()}${pick(endings)}`,
  () => `${pick(subjects)} is ${caps(pick(boosters))} ${pick([...positives, ...negatives])} ${pick(emoticons)}`,
  () => `${pick(emoticons)} ${pick(subjects).toLowerCase()} ${pick(["works", "fails", "rocks", "sucks"])} ${pick(emoticons)}`,
  () => `At least ${pick(subjects).toLowerCase()} is ${pick([...positives, ...negatives])}${pick(endings)}`,
  () => `${pick(subjects)} is the least ${pick([...positives, ...negatives])} I have seen${pick(endings)}`,
  () => `${pick(subjects)} is very least ${pick(positives)}, ${pick(fillers)}${pick(endings)}`,
  () => `${pick(idioms)}${pick(endings)}`,
  () => `${pick(fillers)}, ${pick(subjects).toLowerCase()} was never so ${pick([...positives, ...negatives])}${pick(endings)}`,
  () => `${pick(subjects)} is not ${pick(boosters)} ${pick([...positives, ...negatives])} at all${pick(endings)}`,
  () => `I ${pick(["love", "hate", "like", "dislike", "enjoy", "regret"])} it, ${pick(fillers)}, ${pick(subjects).toLowerCase()} is ${pick([...positives, ...negatives])}${pick(endings)}`,
  () => `"${caps(pick(positives))}!" said my colleague - ${pick(negations)} ${pick(negatives)}, ${pick(["right", "ok", "sure"])}?`,
  () => `${pick(subjects)}: ${pick(positives)}; ${pick(["price", "speed"])}: ${pick(negatives)}${pick(endings)}`,
  () => `${pick(subjects)} is kind of ${pick([...positives, ...negatives])} but ${pick(boosters)} ${pick([...positives, ...negatives])}${pick(endings)}`,
  () => `${pick(subjects)}   was\t${pick(positives)}...  and ${pick(negatives)}(${pick(positives)})${pick(endings)}`,
  () => `Without ${pick(["doubt", "question"])} ${pick(subjects).toLowerCase()} is ${pick(boosters)} ${pick(positives)}${pick(endings)}`,
];

const sentences = [];
while (sentences.length < 600) sentences.push(pick(builders)());
// A few fixed corner cases besides.
sentences.push("", "ok", "a b c", "!!!", "I", "NOT BAD AT ALL", "not bad at all", "Not bad at all",
  "kind of", "The the the", "😀 great 😀", "café is très good", "good!!!!!!", "GOOD good GOOD",
  // Tokens with capitals beyond ASCII, which the port lowercases before it looks them up.
  "great :Þ", "nice :-Þ", "so :þ", "ÉNORME good", "Привет bad", "ŒUVRE great", "ΑΛΦΑ nice");

const cpp = execFileSync(binary, ["--compound"], { input: sentences.map((s) => s.replace(/\n/g, " ")).join("\n") + "\n" })
  .toString().trim().split("\n").map(Number);
if (cpp.length !== sentences.length) {
  console.error(`vader: ${cpp.length} scores for ${sentences.length} sentences`);
  process.exit(1);
}
let worst = 0;
const failures = [];
const labels = { positive: 0, neutral: 0, negative: 0 };
sentences.forEach((s, i) => {
  const reference = vader.SentimentIntensityAnalyzer.polarity_scores(s.replace(/\n/g, " ")).compound;
  labels[reference >= 0.05 ? "positive" : reference <= -0.05 ? "negative" : "neutral"] += 1;
  const diff = Math.abs(reference - cpp[i]);
  worst = Math.max(worst, diff);
  // The port is followed rule for rule, so the scores agree to their 4 decimals (the issue's
  // bound is 0.01). Written so that a score that is no number (NaN) fails too.
  if (!(diff <= 0.00015)) failures.push(`${JSON.stringify(s)}: reference ${reference}, ours ${cpp[i]}`);
});
console.log(`vader: ${sentences.length} sentences (reference labels: ${JSON.stringify(labels)}), ` +
  `largest difference ${worst.toFixed(4)}`);
if (failures.length) {
  console.error(`vader: ${failures.length} disagree by more than 0.0001:\n  ${failures.slice(0, 30).join("\n  ")}`);
  process.exit(1);
}
