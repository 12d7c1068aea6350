"""The cache of the maps' static layers: bounded by the bytes it holds, least recently used out first,
one entry per drawing, and its pieces give back the very picture the whole layers gave."""

from __future__ import annotations

from PIL import Image, ImageChops

from render import basemap
from render.basemap import BaseMap, base_map, drawing_of
from render.geometry import load_geometry
from render.layout import Layout
from render.lru import ByteLRU
from render.palette import get_palette


def sized(cache: ByteLRU[str, bytes], key: str, size: int) -> bytes:
    return cache.get_or_build(key, lambda: bytes(size))


def test_the_cache_drops_the_least_recently_used_until_the_bytes_fit() -> None:
    cache: ByteLRU[str, bytes] = ByteLRU(100, len)
    sized(cache, "small", 10)
    sized(cache, "big", 60)
    sized(cache, "mid", 30)
    assert cache.keys() == ["small", "big", "mid"]  # 100 bytes: all three fit, whatever their number
    sized(cache, "small", 10)  # a hit makes it the most recently used
    sized(cache, "other", 30)  # 130 bytes: the least recently used goes, "big", not the oldest added
    assert cache.keys() == ["mid", "small", "other"]
    info = cache.info()
    assert (info.hits, info.misses, info.evictions, info.bytes) == (1, 4, 1, 70)


def test_a_value_larger_than_the_budget_is_given_but_not_kept() -> None:
    cache: ByteLRU[str, bytes] = ByteLRU(100, len)
    sized(cache, "a", 50)
    assert len(sized(cache, "huge", 500)) == 500
    assert cache.keys() == ["a"]
    built = []

    def build() -> bytes:
        built.append(1)
        return bytes(500)

    cache.get_or_build("huge", build)
    assert built == [1]  # built again: it was never kept


def test_a_smaller_budget_drops_what_no_longer_fits() -> None:
    cache: ByteLRU[str, bytes] = ByteLRU(100, len)
    for key in "abc":
        sized(cache, key, 30)
    cache.set_budget(65)
    assert cache.keys() == ["b", "c"]


def test_maps_drawn_alike_share_their_layers() -> None:
    """Chaos is played on the Standard board's drawing: its maps reuse the Standard layers."""
    assert drawing_of("chaos") == drawing_of("standard")
    assert base_map(800, "default", True, "chaos") is base_map(800, "default", True, "standard")
    assert drawing_of("youngstown") != drawing_of("standard")


def test_the_layers_are_counted_in_bytes() -> None:
    layers = base_map(800, "default", True, "ancmed")
    pixels = layers.framed.width * layers.framed.height
    assert pixels <= layers.nbytes < 4 * pixels  # the index at a byte a pixel, and the drawn parts only
    key = ("base", 800, "default", True, drawing_of("ancmed"))
    assert key in basemap.cache_keys()


def _whole(layers: BaseMap) -> Image.Image:
    canvas = Image.new("RGBa", (layers.layout.width, layers.layout.map_height), (0, 0, 0, 0))
    for piece, corner in layers.overlay:
        canvas.paste(piece, corner)
    return canvas


def test_the_overlay_pieces_hold_every_drawn_pixel_of_the_layer() -> None:
    """Cut into pieces, the lines layer pasted back is the layer itself: the maps are unchanged."""
    for name in ("standard", "modern"):
        geo = load_geometry(name)
        lay = Layout.for_width(700, geo)
        layer = basemap._build_overlay(geo, lay, get_palette("default"))
        pieces = basemap._pieces(layer)
        canvas = Image.new("RGBa", layer.size, (0, 0, 0, 0))
        for piece, corner in pieces:
            canvas.paste(piece, corner)
        assert ImageChops.difference(canvas.convert("RGBA"), layer.convert("RGBA")).getbbox() is None
        covered = sum(piece.width * piece.height for piece, _ in pieces)
        assert covered < 0.6 * layer.width * layer.height  # only where something is drawn
