// Tiles as the seeds write them (docs/rules.md §1): "5m" (万 characters), "5p" (筒 dots), "5s" (条 bamboo),
// and "7z" (红中, the red dragon some wild-tile rooms add to the wall, docs/rules.md §12.1).
// Every tile on the page is one of the SVG pictures in tiles/ (drawn by tools/make_tiles.py, no
// text inside), so a tile reads the same on a machine without any CJK font. A wild tile carries a
// corner mark, a picture too (marks/tingyong.svg 听用, marks/gui.svg 鬼 on a 红中).

export const SUITS = ["m", "p", "s"];
export const SUIT_CHARS = { m: "万", p: "筒", s: "条" };
export const SUIT_NAMES = { m: "characters", p: "dots", s: "bamboo" };
export const HONGZHONG = "7z";

/** Kind index of a tile name (万 0–8, 筒 9–17, 条 18–26, 红中 27). */
export function kindOf(name) {
  if (name === HONGZHONG) return 27;
  return SUITS.indexOf(name[1]) * 9 + Number(name[0]) - 1;
}

/** Tile names sorted in display order: 万, 筒, 条, ascending, then 红中. */
export function sortTiles(names) {
  return [...names].sort((a, b) => kindOf(a) - kindOf(b));
}

// The wild kinds of the hand on the page (docs/rules.md §12.1): every tile of them is drawn with
// the wild mark. Set by the view before it draws (setWilds), empty at a table without wilds.
let wildKinds = new Set();

/** The wild kinds of the table being drawn (tile names; [] or null: none). */
export function setWilds(kinds) {
  wildKinds = new Set(kinds || []);
}

/** Whether a tile name is a wild of the table being drawn. */
export function isWild(name) {
  return Boolean(name) && wildKinds.has(name);
}

/** The mark of a wild tile: 鬼 on a 红中, 听用 on a wild of a suit kind (幺鸡, a 本金's neighbour). */
export function wildMark(name) {
  return name === HONGZHONG ? { id: "gui", text: "鬼 wild (gui)" } : { id: "tingyong", text: "听用 wild (tingyong)" };
}

/** The picture of a tile: tiles/<name>.svg, or tiles/back.svg for "?" (or null). */
export function tileSrc(name) {
  return `tiles/${!name || name === "?" ? "back" : name}.svg`;
}

/** One tile element: a span (the box, the marks: selected, last, received, wild) holding the
 * picture. `name` "?" (or null) draws the back of a tile. `wild`: whether to mark it as a wild
 * (default: when its kind is one of the table's wild kinds, setWilds). */
export function tileEl(name, { small = false, extraClass = "", wild = undefined } = {}) {
  const el = document.createElement("span");
  el.className = `tile${small ? " small" : ""}${extraClass ? " " + extraClass : ""}`;
  const img = document.createElement("img");
  img.src = tileSrc(name);
  img.draggable = false;
  if (!name || name === "?") {
    el.classList.add("back");
    el.title = "hidden";
    img.alt = "?";
  } else {
    el.classList.add(`suit-${name[1]}`);
    el.dataset.tile = name;
    el.title = tileText(name);
    img.alt = name;
  }
  el.append(img);
  if (name && name !== "?" && (wild === undefined ? isWild(name) : wild)) {
    // The corner mark: a drawn picture (no text to box on a machine without CJK fonts).
    const mark = wildMark(name);
    const badge = document.createElement("i");
    badge.className = `wild-mark mark-${mark.id}`;
    el.classList.add("wild");
    el.dataset.wild = mark.id;
    el.title += ` — ${mark.text}`;
    el.append(badge);
  }
  return el;
}

/** "5p (5 dots)", "7z (red dragon)": the text of a tile for titles and alt texts (Latin only:
 * readable anywhere). */
export function tileText(name) {
  if (!name || name === "?") return "?";
  if (name === HONGZHONG) return "7z (red dragon)";
  return `${name} (${name[0]} ${SUIT_NAMES[name[1]]})`;
}
