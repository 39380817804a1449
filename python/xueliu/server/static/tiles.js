// Tiles as the seeds write them (docs/rules.md §1): "5m" (万 characters), "5p" (筒 dots), "5s" (条 bamboo).
// Every tile on the page is one of the SVG pictures in tiles/ (drawn by tools/make_tiles.py, no
// text inside), so a tile reads the same on a machine without any CJK font.

export const SUITS = ["m", "p", "s"];
export const SUIT_CHARS = { m: "万", p: "筒", s: "条" };
export const SUIT_NAMES = { m: "characters", p: "dots", s: "bamboo" };

/** Kind index 0..26 of a tile name (万 0–8, 筒 9–17, 条 18–26). */
export function kindOf(name) {
  return SUITS.indexOf(name[1]) * 9 + Number(name[0]) - 1;
}

/** Tile names sorted in display order: 万, 筒, 条, ascending. */
export function sortTiles(names) {
  return [...names].sort((a, b) => kindOf(a) - kindOf(b));
}

/** The picture of a tile: tiles/<name>.svg, or tiles/back.svg for "?" (or null). */
export function tileSrc(name) {
  return `tiles/${!name || name === "?" ? "back" : name}.svg`;
}

/** One tile element: a span (the box, the marks: selected, last, received) holding the picture.
 * `name` "?" (or null) draws the back of a tile. */
export function tileEl(name, { small = false, extraClass = "" } = {}) {
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
  return el;
}

/** "5p (5 dots)": the text of a tile for titles and alt texts (Latin only: readable anywhere). */
export function tileText(name) {
  return name && name !== "?" ? `${name} (${name[0]} ${SUIT_NAMES[name[1]]})` : "?";
}
