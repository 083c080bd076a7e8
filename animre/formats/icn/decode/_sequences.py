"""FRM sequences drawn with ICN sprites: which ICN a monster's FRM animates, and each sequence's frames
and timing as the engine shows them."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pandas as pd

from ....base.errors import UsageError
from ._palette import sprite_rgba
from ._sprites import MAX_PIXELS, IcnSprite

# The engine's monster table pairs each monster's FRM.BIN with its ICN
# (only monsters whose FRM name is unique to one ICN; upgrades sharing an FRM are left out).
MONSTER_FILES: dict[str, str] = {
    "PEAS_FRM.BIN": "PEASANT.ICN", "ARCHRFRM.BIN": "ARCHER.ICN", "PIKMNFRM.BIN": "PIKEMAN.ICN",
    "SWRDSFRM.BIN": "SWORDSMN.ICN", "CVLRYFRM.BIN": "CAVALRYR.ICN", "PALADFRM.BIN": "PALADIN.ICN",
    "GOBLNFRM.BIN": "GOBLIN.ICN", "ORC__FRM.BIN": "ORC.ICN", "WOLF_FRM.BIN": "WOLF.ICN",
    "OGRE_FRM.BIN": "OGRE.ICN", "TROLLFRM.BIN": "TROLL.ICN", "CYCLOFRM.BIN": "CYCLOPS.ICN",
    "SPRITFRM.BIN": "SPRITE.ICN", "DWARFFRM.BIN": "DWARF.ICN", "ELF__FRM.BIN": "ELF.ICN",
    "DRUIDFRM.BIN": "DRUID.ICN", "UNICOFRM.BIN": "UNICORN.ICN", "PHOENFRM.BIN": "PHOENIX.ICN",
    "CENTRFRM.BIN": "CENTAUR.ICN", "GARGLFRM.BIN": "GARGOYLE.ICN", "GRIFFFRM.BIN": "GRIFFIN.ICN",
    "MINOTFRM.BIN": "MINOTAUR.ICN", "HYDRAFRM.BIN": "HYDRA.ICN", "DRAGGFRM.BIN": "DRAGGREE.ICN",
    "HALFLFRM.BIN": "HALFLING.ICN", "BOAR_FRM.BIN": "BOAR.ICN", "GOLEMFRM.BIN": "GOLEM.ICN",
    "ROC__FRM.BIN": "ROC.ICN", "MAGE1FRM.BIN": "MAGE1.ICN", "SKEL_FRM.BIN": "SKELETON.ICN",
    "ZOMB_FRM.BIN": "ZOMBIE.ICN", "MUMMYFRM.BIN": "MUMMYW.ICN", "VAMPIFRM.BIN": "VAMPIRE.ICN",
    "LICH_FRM.BIN": "LICH.ICN", "DRABNFRM.BIN": "DRAGBONE.ICN", "GHOSTFRM.BIN": "GHOST.ICN",
}


def icn_for_frm(name: str) -> str:
    """The ICN file a monster's ``*FRM.BIN`` animates, by the engine's monster table.

    Names the table does not hold fall back to the same stem
    (``XYZFRM.BIN`` -> ``XYZ.ICN``).

    Examples
    --------
    >>> icn_for_frm("frm/GOBLNFRM.BIN"), icn_for_frm("MYMONFRM.BIN")
    ('GOBLIN.ICN', 'MYMON.ICN')
    """
    base = Path(str(name).replace("\\", "/")).name.upper()
    if base in MONSTER_FILES:
        return MONSTER_FILES[base]
    stem = base[:-len(".BIN")] if base.endswith(".BIN") else base
    stem = stem[:-len("FRM")] if stem.endswith("FRM") else stem
    return f"{stem}.ICN"


MOVE_SLOTS = range(0, 7)  # slots with per-position X offsets (move_start .. unused)
SHOOT_SLOTS = range(28, 34)
IDLE_SLOTS = range(8, 13)
BATTLE_FRAME_DELAY_MS = 120  # the engine's battle frame delay at normal battle speed
BATTLE_IDLE_DELAY_MS = 150  # the engine's idle animation frame delay at normal speed


def sequence_interval_ms(slot: int, num_frames: int, frm: Mapping) -> float:
    """Milliseconds per frame of an FRM sequence, as the engine times it at normal battle speed.

    Movement slots (0-6) spread ``walk_speed`` over the sequence's frames,
    shooting slots (28-33) spread ``shoot_speed``; idles use the engine's idle
    delay (150 ms) and everything else its battle frame delay (120 ms).
    ``frm``: the FRM's root row (``walk_speed``, ``shoot_speed``).

    Examples
    --------
    >>> sequence_interval_ms(2, 4, {"walk_speed": 400, "shoot_speed": 0})
    100.0
    >>> sequence_interval_ms(13, 4, {"walk_speed": 400, "shoot_speed": 0})
    120.0
    """
    n = max(int(num_frames), 1)
    if slot in MOVE_SLOTS and int(frm["walk_speed"]) > 0:
        return int(frm["walk_speed"]) / n
    if slot in SHOOT_SLOTS and int(frm["shoot_speed"]) > 0:
        return int(frm["shoot_speed"]) / n
    return float(BATTLE_IDLE_DELAY_MS if slot in IDLE_SLOTS else BATTLE_FRAME_DELAY_MS)


def sequence_frames(tables: Mapping[str, pd.DataFrame], sprites: list[IcnSprite], sequence: int | str,
                    *, palette: np.ndarray | None = None, file: str | None = None,
                    ) -> tuple[np.ndarray, pd.DataFrame]:
    """The frames of one FRM sequence as RGBA images on a common canvas.

    Each frame is its ICN sprite drawn at the anchor plus the sprite's own
    offsets plus, for movement slots, the FRM X offset of its position (the
    engine shifts a moving unit by it); the canvas is the union of all
    frames' boxes. Transparent pixels have alpha 0, shadows are
    semi-transparent black (:func:`sprite_rgba`).

    Parameters
    ----------
    tables : mapping of table name -> DataFrame
        The FRM tables (``frm``, ``frm_sequences``, ``frm_frames``,
        ``frm_x_offsets``), e.g. ``corpus.tables`` or the values of
        :func:`animre.tables.read.read_tables`; with several files pass ``file``.
    sprites : list of IcnSprite
        The monster's ICN (:func:`icn_sprites` of :func:`icn_for_frm`'s file).
    sequence : int or str
        Slot number or name (``"idle_1"``, ``"attack_2_front"`` ...).
    palette : (256, 3|4) array, optional
        Default :func:`stand_in_palette`.

    Returns
    -------
    frames : numpy.ndarray
        uint8 array of shape (n, canvas height, canvas width, 4).
    info : pandas.DataFrame
        One row per frame: ``position``, ``frame_id``, ``x_offset`` (FRM),
        ``x``, ``y`` (the frame's top-left on the canvas), ``anchor_x``,
        ``anchor_y`` (the anchor on the canvas) and ``interval_ms``
        (:func:`sequence_interval_ms`).

    Examples
    --------
    >>> from animre.formats import get_format
    >>> from animre.tables.read import read_tables
    >>> from animre.formats.icn.decode import icn_sprites
    >>> t = {k: v.frames()[0] for k, v in read_tables(open("data/samples/frm/GOBLNFRM.BIN", "rb").read(),
    ...                                      "GOBLNFRM.BIN", get_format("frm")).items()}
    >>> frames, info = sequence_frames(t, icn_sprites("data/samples/icn/GOBLIN.ICN"), "static")
    >>> frames.shape[0], frames.shape[-1]
    (1, 4)
    """
    def pick(name: str) -> pd.DataFrame:
        if name not in tables:
            raise UsageError(f"sequence_frames needs the table {name!r}")
        df = tables[name]
        if file is not None and "file" in df:
            df = df[df["file"] == file]
        elif "file" in df and df["file"].nunique() > 1:
            raise UsageError(f"{name} holds several files; pass file=")
        return df

    seqs, frames_t, xo, root = pick("frm_sequences"), pick("frm_frames"), pick("frm_x_offsets"), pick("frm")
    if isinstance(sequence, str):
        hit = seqs[seqs["animation_name"] == sequence] if "animation_name" in seqs else seqs.iloc[:0]
        if hit.empty:
            raise UsageError(f"no sequence named {sequence!r}")
        slot = int(hit["slot"].iloc[0])
    else:
        slot = int(sequence)
    srow = seqs[seqs["slot"] == slot]
    if srow.empty:
        raise UsageError(f"no sequence slot {slot}")
    n = int(srow["num_frames"].iloc[0])
    ids = frames_t[(frames_t["slot"] == slot) & (frames_t["position"] < n)].sort_values("position")
    ids = ids["frame_ids"].astype(int).tolist()
    offs = [0] * len(ids)
    if slot in MOVE_SLOTS:
        row = xo[xo["slot"] == slot].sort_values("position")["offsets"].astype(int).tolist()
        offs = [row[p] if p < len(row) else 0 for p in range(len(ids))]
    for p, fid in enumerate(ids):
        if fid >= len(sprites):
            raise UsageError(f"slot {slot} position {p}: frame id {fid} but the ICN has {len(sprites)} sprites")
    interval = sequence_interval_ms(slot, n, root.iloc[0])
    if not ids:
        return np.zeros((0, 1, 1, 4), np.uint8), pd.DataFrame(
            columns=["position", "frame_id", "x_offset", "x", "y", "anchor_x", "anchor_y", "interval_ms"])
    boxes = [(sprites[f].offset_x + o, sprites[f].offset_y, sprites[f].image.shape[1], sprites[f].image.shape[0])
             for f, o in zip(ids, offs)]
    x0 = min(min(b[0] for b in boxes), 0)
    y0 = min(min(b[1] for b in boxes), 0)
    x1 = max(max(b[0] + b[2] for b in boxes), 1)
    y1 = max(max(b[1] + b[3] for b in boxes), 1)
    if (y1 - y0) * (x1 - x0) > MAX_PIXELS:
        raise UsageError(f"slot {slot}: a canvas of {x1 - x0} x {y1 - y0} pixels exceeds {MAX_PIXELS} pixels "
                         "(sprite or FRM offsets far apart)")
    out = np.zeros((len(ids), y1 - y0, x1 - x0, 4), np.uint8)
    rows = []
    for k, (fid, o, (bx, by, bw, bh)) in enumerate(zip(ids, offs, boxes)):
        out[k, by - y0:by - y0 + bh, bx - x0:bx - x0 + bw] = sprite_rgba(sprites[fid], palette)
        rows.append((k, fid, o, bx - x0, by - y0, -x0, -y0, interval))
    info = pd.DataFrame(rows, columns=["position", "frame_id", "x_offset", "x", "y", "anchor_x", "anchor_y",
                                       "interval_ms"])
    return out, info
