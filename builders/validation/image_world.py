"""The synthetic image world: drawn pictures whose English sentence has one ambiguous word only the picture resolves.

Every scene shows one glyph (a procedurally drawn shape standing for one *sense*, e.g. "bat" the animal or "bat"
the club) in a named colour at a named position on a noisy light background. Its English sentence uses the
ambiguous word ("The red bat is on the left."), its German translation the sense's noun with agreement
("Die rote Fledermaus ist links." / "Der rote Schläger ist links."), and its caption the unambiguous cue
("a red flying bat on the left"). A text-only model cannot tell the two German translations apart; a model that
sees the picture can. Senses come from ``resources/validation/image_senses.tsv``; everything else from a seed.

Writers produce the layouts the real builders read: CoMMuTE (``src.en``, ``correct.de``, ``incorrect.de``,
``img.order``, images), Multi30K (``<split>.en/.de/.images.txt``) and an image collection folder whose file
names carry the sense key (the retrieval ground truth).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from builders.core.errors import InputError
from builders.core.resources import resource_path

if TYPE_CHECKING:
    from PIL import Image, ImageDraw

IMAGE_SIZE = 64  # the commute_ext filters keep images with a side >= 64 px (the paper's value)
GENDERS = ("m", "f", "n")
DEFINITE = {"m": ("der", "den"), "f": ("die", "die"), "n": ("das", "das")}  # nominative, accusative
INDEFINITE = {"m": ("ein", "einen"), "f": ("eine", "eine"), "n": ("ein", "ein")}
WEAK_ENDING = {"m": ("e", "en"), "f": ("e", "e"), "n": ("e", "e")}  # adjective after a definite article
STRONG_ENDING = {"m": ("er", "en"), "f": ("e", "e"), "n": ("es", "es")}  # adjective after an indefinite article


@dataclass(frozen=True)
class Sense:
    key: str
    word: str  # the ambiguous English word
    cue: str  # unambiguous English description of this sense
    german: str
    gender: str
    glyph: str


@dataclass(frozen=True)
class Colour:
    english: str
    german_stem: str
    rgb: tuple[int, int, int]


@dataclass(frozen=True)
class Position:
    english: str
    german: str
    centre: tuple[float, float]  # fraction of the image side


COLOURS = (
    Colour("red", "rot", (205, 30, 30)),
    Colour("blue", "blau", (30, 60, 210)),
    Colour("green", "grün", (25, 140, 40)),
    Colour("yellow", "gelb", (215, 175, 0)),
    Colour("brown", "braun", (115, 65, 20)),
    Colour("black", "schwarz", (20, 20, 20)),
)
POSITIONS = (
    Position("on the left", "links", (0.26, 0.5)),
    Position("on the right", "rechts", (0.74, 0.5)),
    Position("at the top", "oben", (0.5, 0.26)),
    Position("at the bottom", "unten", (0.5, 0.74)),
    Position("in the middle", "in der Mitte", (0.5, 0.5)),
)


NOMINATIVE, ACCUSATIVE = 0, 1


@dataclass(frozen=True)
class Template:
    """One sentence frame; the German noun phrase (article + adjective + noun) agrees with the sense's gender."""

    english: str  # with {colour}, {word}, {position}
    german: str  # with {noun_phrase}, {position}; a phrase opening the sentence is capitalised
    articles: dict[str, tuple[str, str]]  # DEFINITE or INDEFINITE
    endings: dict[str, tuple[str, str]]  # WEAK_ENDING (after der/die/das) or STRONG_ENDING (after ein/eine)
    case: int

    def realise(self, sense: Sense, colour: Colour, position: Position) -> str:
        article = self.articles[sense.gender][self.case]
        phrase = f"{article} {colour.german_stem}{self.endings[sense.gender][self.case]} {sense.german}"
        if self.german.startswith("{noun_phrase}"):
            phrase = phrase[0].upper() + phrase[1:]
        return self.german.format(noun_phrase=phrase, position=position.german)


TEMPLATES = (
    Template("The {colour} {word} is {position}.", "{noun_phrase} ist {position}.", DEFINITE, WEAK_ENDING,
             NOMINATIVE),
    Template("I see the {colour} {word} {position}.", "Ich sehe {noun_phrase} {position}.", DEFINITE, WEAK_ENDING,
             ACCUSATIVE),
    Template("A {colour} {word} is {position}.", "{noun_phrase} ist {position}.", INDEFINITE, STRONG_ENDING,
             NOMINATIVE),
    Template("There is a {colour} {word} {position}.", "Es gibt {noun_phrase} {position}.", INDEFINITE,
             STRONG_ENDING, ACCUSATIVE),
)


@dataclass(frozen=True)
class Scene:
    sense: Sense
    colour: Colour
    position: Position
    template: int
    draw_seed: int

    @property
    def english(self) -> str:
        pattern = TEMPLATES[self.template].english
        return pattern.format(colour=self.colour.english, word=self.sense.word, position=self.position.english)

    def german(self, sense: Sense | None = None) -> str:
        """The translation; with another ``sense`` of the same word, the contrastive one (agreement repaired)."""
        return TEMPLATES[self.template].realise(sense or self.sense, self.colour, self.position)

    @property
    def caption(self) -> str:
        return f"a {self.colour.english} {self.sense.cue} {self.position.english}"

    def image(self) -> Image.Image:
        return draw_scene(self)


def load_senses(path: Path | None = None) -> tuple[Sense, ...]:
    """Read the sense table; every word needs exactly two senses and every glyph must be drawable."""
    path = path or resource_path("validation", "image_senses.tsv")
    senses: list[Sense] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 6:
            raise InputError(path, "need 6 tab-separated fields: key, word, cue, German, gender, glyph", line=number)
        sense = Sense(*fields)
        if sense.gender not in GENDERS:
            raise InputError(path, f"gender must be m, f or n, got {sense.gender!r}", line=number)
        if sense.glyph not in GLYPHS:
            raise InputError(path, f"unknown glyph {sense.glyph!r} (known: {', '.join(sorted(GLYPHS))})", line=number)
        senses.append(sense)
    words = [s.word for s in senses]
    odd = sorted({w for w in words if words.count(w) != 2})
    if odd or len({s.glyph for s in senses}) != len(senses) or not senses:
        raise InputError(path, f"each word needs exactly two senses and each sense its own glyph (check {odd})")
    return tuple(senses)


def other_sense(senses: Sequence[Sense], sense: Sense) -> Sense:
    return next(s for s in senses if s.word == sense.word and s.key != sense.key)


def generate(n_scenes: int, seed: int, senses: Sequence[Sense] | None = None) -> list[Scene]:
    """``n_scenes`` scenes cycling through the senses (balanced); colour, position, template and drawing seeded."""
    senses = tuple(senses or load_senses())
    rng = np.random.default_rng(seed)
    return [_random_scene(rng, senses[i % len(senses)]) for i in range(n_scenes)]


def ambiguous_pairs(n_pairs: int, seed: int, senses: Sequence[Sense] | None = None) -> list[tuple[Scene, Scene]]:
    """CoMMuTE-style pairs: one English sentence, two pictures showing the two senses of its ambiguous word."""
    senses = tuple(senses or load_senses())
    firsts = [s for s in senses if s == next(t for t in senses if t.word == s.word)]  # one sense per word
    rng = np.random.default_rng(seed)
    pairs = []
    for index in range(n_pairs):
        first = _random_scene(rng, firsts[index % len(firsts)])
        second = Scene(other_sense(senses, first.sense), first.colour, first.position, first.template,
                       int(rng.integers(2**31)))
        pairs.append((first, second))
    return pairs


def _random_scene(rng: np.random.Generator, sense: Sense) -> Scene:
    return Scene(
        sense,
        COLOURS[int(rng.integers(len(COLOURS)))],
        POSITIONS[int(rng.integers(len(POSITIONS)))],
        int(rng.integers(len(TEMPLATES))),
        int(rng.integers(2**31)),
    )


# --- drawing -------------------------------------------------------------------------------------------------
# Polygon glyphs in unit coordinates (radius about 1, y down); rotated by a small random angle when drawn.
def _star(points: int, inner: float) -> list[tuple[float, float]]:
    corners = []
    for k in range(2 * points):
        radius = 1.0 if k % 2 == 0 else inner
        angle = math.pi * k / points - math.pi / 2
        corners.append((radius * math.cos(angle), radius * math.sin(angle)))
    return corners


def _regular(sides: int) -> list[tuple[float, float]]:
    return [(math.cos(2 * math.pi * k / sides), math.sin(2 * math.pi * k / sides)) for k in range(sides)]


POLYGONS: dict[str, list[list[tuple[float, float]]]] = {
    "triangle": [[(0.0, -1.0), (0.9, 0.6), (-0.9, 0.6)]],
    "bar": [[(-0.22, -1.0), (0.22, -1.0), (0.22, 1.0), (-0.22, 1.0)]],
    "bowtie": [[(-1.0, -0.7), (0.0, 0.0), (-1.0, 0.7)], [(1.0, -0.7), (0.0, 0.0), (1.0, 0.7)]],
    "ell": [[(-0.7, -1.0), (-0.25, -1.0), (-0.25, 0.55), (0.8, 0.55), (0.8, 1.0), (-0.7, 1.0)]],
    "chevron": [[(-1.0, -0.5), (0.0, 0.45), (1.0, -0.5), (1.0, 0.05), (0.0, 1.0), (-1.0, 0.05)]],
    "star": [_star(5, 0.42)],
    "square": [[(-0.8, -0.8), (0.8, -0.8), (0.8, 0.8), (-0.8, 0.8)]],
    "hook": [[(0.2, -1.0), (0.6, -1.0), (0.6, 0.55), (0.15, 1.0), (-0.6, 1.0), (-0.85, 0.5), (-0.45, 0.4),
              (-0.35, 0.62), (0.2, 0.6)]],
    "trapezoid": [[(-0.5, -0.7), (0.5, -0.7), (1.0, 0.7), (-1.0, 0.7)]],
    "plus": [[(-0.3, -1.0), (0.3, -1.0), (0.3, -0.3), (1.0, -0.3), (1.0, 0.3), (0.3, 0.3), (0.3, 1.0),
              (-0.3, 1.0), (-0.3, 0.3), (-1.0, 0.3), (-1.0, -0.3), (-0.3, -0.3)]],
    "hexagon": [_regular(6)],
    "keyhole": [[(0.0, -0.3), (0.55, 1.0), (-0.55, 1.0)]],  # plus a disc on top, see _draw_round
}
ROUND_GLYPHS = ("circle", "ring", "crescent", "halfdisc", "keyhole")
GLYPHS = frozenset(POLYGONS) | frozenset(ROUND_GLYPHS)


def _draw_polygons(draw: ImageDraw.ImageDraw, glyph: str, centre: tuple[float, float], radius: float,
                   angle: float, fill: tuple[int, int, int]) -> None:
    cos, sin = math.cos(angle), math.sin(angle)
    for polygon in POLYGONS.get(glyph, []):
        points = [(centre[0] + radius * (x * cos - y * sin), centre[1] + radius * (x * sin + y * cos))
                  for x, y in polygon]
        draw.polygon(points, fill=fill)


def _draw_round(draw: ImageDraw.ImageDraw, glyph: str, centre: tuple[float, float], radius: float,
                angle: float, fill: tuple[int, int, int], background: tuple[int, int, int]) -> None:
    x, y = centre

    def box(cx: float, cy: float, r: float) -> tuple[float, float, float, float]:
        return (cx - r, cy - r, cx + r, cy + r)

    degrees = math.degrees(angle)
    if glyph == "circle":
        draw.ellipse(box(x, y, radius), fill=fill)
    elif glyph == "ring":
        draw.ellipse(box(x, y, radius), outline=fill, width=max(2, round(radius * 0.3)))
    elif glyph == "crescent":
        draw.ellipse(box(x, y, radius), fill=fill)
        shift = 0.45 * radius
        draw.ellipse(box(x + shift * math.cos(angle), y + shift * math.sin(angle), radius * 0.85), fill=background)
    elif glyph == "halfdisc":
        draw.pieslice(box(x, y, radius), start=degrees, end=degrees + 180, fill=fill)
    elif glyph == "keyhole":
        draw.ellipse(box(x, y - 0.45 * radius, 0.5 * radius), fill=fill)


def draw_scene(scene: Scene, size: int = IMAGE_SIZE) -> Image.Image:
    """The scene's picture: same scene, same pixels (all jitter comes from ``scene.draw_seed``)."""
    from PIL import Image, ImageDraw

    rng = np.random.default_rng(scene.draw_seed)
    background = tuple(int(v) for v in rng.integers(185, 256, size=3))
    image = Image.new("RGB", (size, size), background)  # type: ignore[arg-type]
    draw = ImageDraw.Draw(image)
    for _ in range(8):  # specks: texture that carries no information
        sx, sy = (float(v) for v in rng.uniform(0, size, size=2))
        grey = int(rng.integers(120, 200))
        draw.ellipse((sx, sy, sx + 1.5, sy + 1.5), fill=(grey, grey, grey))
    fx, fy = scene.position.centre
    centre = ((fx + rng.uniform(-0.05, 0.05)) * size, (fy + rng.uniform(-0.05, 0.05)) * size)
    radius = float(rng.uniform(0.14, 0.2)) * size
    angle = math.radians(float(rng.uniform(-20, 20)))
    fill = scene.colour.rgb
    _draw_polygons(draw, scene.sense.glyph, centre, radius, angle, fill)
    if scene.sense.glyph in ROUND_GLYPHS:
        _draw_round(draw, scene.sense.glyph, centre, radius, angle, fill, background)  # type: ignore[arg-type]
    return image


# --- writers -------------------------------------------------------------------------------------------------
def image_name(index: int, scene: Scene) -> str:
    return f"{index:05d}-{scene.sense.key}.png"


def sense_of_image(name: str) -> str:
    """The sense key a collection or test image was drawn for (the retrieval ground truth)."""
    return Path(name).stem.split("-", 1)[1]


def write_images(scenes: Sequence[Scene], folder: Path, offset: int = 0) -> list[str]:
    """PNG files named ``<index>-<sense key>.png``; returns the names in scene order."""
    folder.mkdir(parents=True, exist_ok=True)
    names = []
    for index, scene in enumerate(scenes, start=offset):
        name = image_name(index, scene)
        scene.image().save(folder / name, format="PNG")
        names.append(name)
    return names


def _write_lines(path: Path, lines: Sequence[str]) -> None:
    from builders.core.atomic import write_text

    write_text(path, "".join(f"{line}\n" for line in lines))


def write_commute(pairs: Sequence[tuple[Scene, Scene]], root: Path, senses: Sequence[Sense] | None = None) -> Path:
    """CoMMuTE layout under ``root``: ``en-de/{src.en,correct.de,incorrect.de,img.order}`` and ``images/``.

    Like CoMMuTE, each ambiguous source sits on two consecutive lines, once per picture, with the correct and
    incorrect translations swapped. Returns the ``en-de`` folder.
    """
    senses = tuple(senses or load_senses())
    scenes = [scene for pair in pairs for scene in pair]
    names = write_images(scenes, root / "images")
    folder = root / "en-de"
    folder.mkdir(parents=True, exist_ok=True)
    _write_lines(folder / "src.en", [s.english for s in scenes])
    _write_lines(folder / "correct.de", [s.german() for s in scenes])
    _write_lines(folder / "incorrect.de", [s.german(other_sense(senses, s.sense)) for s in scenes])
    _write_lines(folder / "img.order", names)
    return folder


def write_multi30k(scenes: Sequence[Scene], folder: Path, split: str) -> list[str]:
    """Multi30K layout: ``<split>.en``, ``<split>.de``, ``<split>.images.txt`` and ``images/``."""
    names = write_images(scenes, folder / "images")
    _write_lines(folder / f"{split}.en", [s.english for s in scenes])
    _write_lines(folder / f"{split}.de", [s.german() for s in scenes])
    _write_lines(folder / f"{split}.images.txt", names)
    return names
