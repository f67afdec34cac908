// english.mjs — how the web tests tell an untranslated generated text: a
// Spanish text that still holds one of these English words has a phrase
// server/web/gen-es.js has no rule for. None of them is a Spanish word, nor
// one Spanish computing keeps (host, token, use). Left out: text in quotes
// ('' "" «» and backticks; an apostrophe inside a word is no quote), a
// quoted log file name, and a token with a slash (data/gpus.csv, PIX/PXB).
// The words match in lower case or capitalised only, so the upper-case
// names a rule keeps (NODE, SYS of nvidia-smi topo's legend) do not count.
const WORDS = ('the of is are was were be been within exposes step node nodes unknown needs need fit fits memory ' +
  'sticker effective bottleneck communication and with without while have has room takes over on at vs ' +
  'because binds there not met up budget exceeded every count price currency deadline layout layouts ' +
  'fastest smallest largest cluster only between stated does data through staged disabled enabled each ' +
  'which rerun check from into for by than below beyond its their this that it or but if usual most ' +
  'common offering offerings states one per pass give bring used loaded load off found reports report ' +
  'result results rows row wrong values falls half reached sizes size judged plateaued ends before ' +
  'shows holds separate other others some same forced set run runs process processes recognised input ' +
  'empty cut longer shown read measures launched built where can cannot so either neither nor dispatch ' +
  'combine bubble pipeline interleaved exchange parameters hold weights gradients optimizer ' +
  'activations runtime reserve search space tokens board family families applicable selected traffic ' +
  'goes device list mixes ports port first cause returned call failed timed out compare keeps own fix ' +
  'fixing fabric switch whether died isolate bad stalled rules firewall reach transport see why ' +
  'install enable confirm supports support distance place nearest restrict mix expect far lower keep ' +
  'small type pin exclude whole again least plateau rebuild launch all join communicator module works ' +
  'work driver kernel block update take offers turns default allowed limit even fast faster as slower ' +
  'too seqs batch full selective recompute unsupported ranks margin workload exceeds misses gives ' +
  'emulated plain far below container request appears remove widen make reachable ' +
  'attached lists logs instances steps stays mean sizes there').split(' ');
const alt = w => `[${w[0]}${w[0].toUpperCase()}]${w.slice(1)}`;
export const ENGLISH = new RegExp(`(?<![\\p{L}\\p{N}_-])(?:${[...new Set(WORDS)].map(alt).join('|')})(?![\\p{L}\\p{N}_-])`, 'u');

/* The texts that hold an English word after the quoted parts are taken out,
 * each as "word: text". */
export function untranslated(texts) {
  return texts.map(t => [t, String(t).replace(/(?<!\w)'[^']*'(?!\w)|«[^»]*»|"[^"]*"|`[^`]*`|\([^)]*\.(txt|log)[^)]*\)|\S+\/\S+/g, ' ')])
    .filter(([, t]) => ENGLISH.test(t)).map(([o, t]) => `${t.match(ENGLISH)[0]}: ${o.slice(0, 220)}`);
}
