// Tiles as the seeds write them: rank then 万 / 筒 / 条, coloured by suit so they read at a glance.
// A tile name is "5m" (万 characters), "5p" (筒 dots) or "5s" (条 bamboo), RULES §1.

export const SUITS = ["m", "p", "s"];
export const SUIT_CHARS = { m: "万", p: "筒", s: "条" };
const RANK_CHARS = ["一", "二", "三", "四", "五", "六", "七", "八", "九"];

/** Kind index 0..26 of a tile name (万 0–8, 筒 9–17, 条 18–26). */
export function kindOf(name) {
  return SUITS.indexOf(name[1]) * 9 + Number(name[0]) - 1;
}

/** Tile names sorted in display order: 万, 筒, 条, ascending. */
export function sortTiles(names) {
  return [...names].sort((a, b) => kindOf(a) - kindOf(b));
}

/** One tile element. `name` "?" (or null) draws the back of a tile. */
export function tileEl(name, { small = false, extraClass = "" } = {}) {
  const el = document.createElement("span");
  el.className = `tile${small ? " small" : ""}${extraClass ? " " + extraClass : ""}`;
  if (!name || name === "?") {
    el.classList.add("back");
    el.title = "hidden";
    return el;
  }
  const suit = name[1];
  el.classList.add(`suit-${suit}`);
  el.dataset.tile = name;
  el.title = `${name[0]}${SUIT_CHARS[suit]}`;
  const rank = document.createElement("b");
  rank.textContent = suit === "m" ? RANK_CHARS[Number(name[0]) - 1] : name[0];
  const mark = document.createElement("i");
  mark.textContent = SUIT_CHARS[suit];
  el.append(rank, mark);
  return el;
}

/** "5万" for text (reports, buttons). */
export function tileText(name) {
  return name && name !== "?" ? `${name[0]}${SUIT_CHARS[name[1]]}` : "?";
}
