# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
from enum import IntEnum
import collections


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class Frm(KaitaiStruct):
    """Per-monster battle animation description stored in HEROES2.AGG as
    `<monster>FRM.BIN`, always 821 bytes: eye position, per-slot X offsets for
    the movement sequences, idle weights, speeds, projectile geometry, the
    troop-count box and 34 frame sequences of up to 16 frame ids each.
    Readings follow the engine remake (fheroes2) where it disagrees with the
    note: X offsets are signed, idle probabilities are relative weights, the
    count byte (not the 0xFF fill) gives a sequence's length, and 235/239 are
    the troop-count box offsets for the left- and right-facing sprite.
    
    .. seealso::
       Heroes of Might and Magic II community notes, "Bin file structure" (monster animation .bin files)
    
    
    .. seealso::
       fheroes2 engine source, the monster animation reader (how the game uses each field)
    """

    class Slot(IntEnum):
        move_start = 0
        move_tile_start = 1
        move_main = 2
        move_tile_end = 3
        move_stop = 4
        move_one_tile = 5
        unused = 6
        static = 7
        idle_1 = 8
        idle_2 = 9
        idle_3 = 10
        idle_4 = 11
        idle_5 = 12
        death = 13
        wince_up = 14
        wince_end = 15
        attack_1_top = 16
        attack_1_top_end = 17
        attack_1_top_double = 18
        attack_1_top_double_end = 19
        attack_2_front = 20
        attack_2_front_end = 21
        attack_2_front_double = 22
        attack_2_front_double_end = 23
        attack_3_bottom = 24
        attack_3_bottom_end = 25
        attack_3_bottom_double = 26
        attack_3_bottom_double_end = 27
        shoot_top = 28
        shoot_top_end = 29
        shoot_front = 30
        shoot_front_end = 31
        shoot_bottom = 32
        shoot_bottom_end = 33
    SEQ_FIELDS = ["unknown_magic", "eye_x", "eye_y", "x_offsets", "num_idles_raw", "idle_weights", "idle_delays", "idle_interval", "walk_speed", "shoot_speed", "fly_speed", "projectile_offsets", "num_projectile_frames_raw", "projectile_angles", "troop_box_left", "troop_box_right", "num_frames_raw", "sequences", "trailing"]
    def __init__(self, _io, _parent=None, _root=None):
        super(Frm, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._debug = collections.defaultdict(dict)

    def _read(self):
        _animre_r = _animre_run(self._io, 5, _animre_run_0)
        if _animre_r is None:
            self._debug['unknown_magic']['start'] = self._io.pos()
            self.unknown_magic = self._io.read_u1()
            self._debug['unknown_magic']['end'] = self._io.pos()
            self._debug['eye_x']['start'] = self._io.pos()
            self.eye_x = self._io.read_s2le()
            self._debug['eye_x']['end'] = self._io.pos()
            self._debug['eye_y']['start'] = self._io.pos()
            self.eye_y = self._io.read_s2le()
            self._debug['eye_y']['end'] = self._io.pos()
        else:
            _animre_p, (self.unknown_magic, self.eye_x, self.eye_y,) = _animre_r
            _animre_d = self._debug
            _animre_d['unknown_magic'] = {'start': _animre_p + 0, 'end': _animre_p + 1}
            _animre_d['eye_x'] = {'start': _animre_p + 1, 'end': _animre_p + 3}
            _animre_d['eye_y'] = {'start': _animre_p + 3, 'end': _animre_p + 5}
        self._debug['x_offsets']['start'] = self._io.pos()
        self._debug['x_offsets']['arr'] = []
        self._raw_x_offsets = []
        self.x_offsets = []
        for i in range(7):
            self._debug['x_offsets']['arr'].append({'start': self._io.pos()})
            if i & 4095 == 4095:
                _animre_check(self._debug['x_offsets']['arr'], self._io)
            self._raw_x_offsets.append(self._io.read_bytes(16))
            _io__raw_x_offsets = KaitaiStream(BytesIO(self._raw_x_offsets[i]))
            _animre_place(_io__raw_x_offsets, self._io, self._debug['x_offsets']['arr'][i]['start'], None)
            _t_x_offsets = Frm.MoveXOffsets(i, _io__raw_x_offsets, self, self._root)
            try:
                _t_x_offsets._read()
            finally:
                self.x_offsets.append(_t_x_offsets)
            self._debug['x_offsets']['arr'][i]['end'] = self._io.pos()

        self._debug['x_offsets']['end'] = self._io.pos()
        self._debug['num_idles_raw']['start'] = self._io.pos()
        self.num_idles_raw = self._io.read_u1()
        self._debug['num_idles_raw']['end'] = self._io.pos()
        self._debug['idle_weights']['start'] = self._io.pos()
        self._debug['idle_weights']['arr'] = []
        self.idle_weights = []
        for i in range(5):
            self._debug['idle_weights']['arr'].append({'start': self._io.pos()})
            if i & 4095 == 4095:
                _animre_check(self._debug['idle_weights']['arr'], self._io)
            self.idle_weights.append(self._io.read_f4le())
            self._debug['idle_weights']['arr'][i]['end'] = self._io.pos()

        self._debug['idle_weights']['end'] = self._io.pos()
        self._debug['idle_delays']['start'] = self._io.pos()
        self._debug['idle_delays']['arr'] = []
        self.idle_delays = []
        for i in range(5):
            self._debug['idle_delays']['arr'].append({'start': self._io.pos()})
            if i & 4095 == 4095:
                _animre_check(self._debug['idle_delays']['arr'], self._io)
            self.idle_delays.append(self._io.read_u4le())
            self._debug['idle_delays']['arr'][i]['end'] = self._io.pos()

        self._debug['idle_delays']['end'] = self._io.pos()
        _animre_r = _animre_run(self._io, 16, _animre_run_1)
        if _animre_r is None:
            self._debug['idle_interval']['start'] = self._io.pos()
            self.idle_interval = self._io.read_u4le()
            self._debug['idle_interval']['end'] = self._io.pos()
            self._debug['walk_speed']['start'] = self._io.pos()
            self.walk_speed = self._io.read_u4le()
            self._debug['walk_speed']['end'] = self._io.pos()
            self._debug['shoot_speed']['start'] = self._io.pos()
            self.shoot_speed = self._io.read_u4le()
            self._debug['shoot_speed']['end'] = self._io.pos()
            self._debug['fly_speed']['start'] = self._io.pos()
            self.fly_speed = self._io.read_u4le()
            self._debug['fly_speed']['end'] = self._io.pos()
        else:
            _animre_p, (self.idle_interval, self.walk_speed, self.shoot_speed, self.fly_speed,) = _animre_r
            _animre_d = self._debug
            _animre_d['idle_interval'] = {'start': _animre_p + 0, 'end': _animre_p + 4}
            _animre_d['walk_speed'] = {'start': _animre_p + 4, 'end': _animre_p + 8}
            _animre_d['shoot_speed'] = {'start': _animre_p + 8, 'end': _animre_p + 12}
            _animre_d['fly_speed'] = {'start': _animre_p + 12, 'end': _animre_p + 16}
        self._debug['projectile_offsets']['start'] = self._io.pos()
        self._debug['projectile_offsets']['arr'] = []
        self.projectile_offsets = []
        for i in range(3):
            self._debug['projectile_offsets']['arr'].append({'start': self._io.pos()})
            if i & 4095 == 4095:
                _animre_check(self._debug['projectile_offsets']['arr'], self._io)
            _t_projectile_offsets = Frm.Point16(self._io, self, self._root)
            try:
                _t_projectile_offsets._read()
            finally:
                self.projectile_offsets.append(_t_projectile_offsets)
            self._debug['projectile_offsets']['arr'][i]['end'] = self._io.pos()

        self._debug['projectile_offsets']['end'] = self._io.pos()
        self._debug['num_projectile_frames_raw']['start'] = self._io.pos()
        self.num_projectile_frames_raw = self._io.read_u1()
        self._debug['num_projectile_frames_raw']['end'] = self._io.pos()
        self._debug['projectile_angles']['start'] = self._io.pos()
        self._debug['projectile_angles']['arr'] = []
        self.projectile_angles = []
        for i in range(12):
            self._debug['projectile_angles']['arr'].append({'start': self._io.pos()})
            if i & 4095 == 4095:
                _animre_check(self._debug['projectile_angles']['arr'], self._io)
            self.projectile_angles.append(self._io.read_f4le())
            self._debug['projectile_angles']['arr'][i]['end'] = self._io.pos()

        self._debug['projectile_angles']['end'] = self._io.pos()
        _animre_r = _animre_run(self._io, 8, _animre_run_2)
        if _animre_r is None:
            self._debug['troop_box_left']['start'] = self._io.pos()
            self.troop_box_left = self._io.read_s4le()
            self._debug['troop_box_left']['end'] = self._io.pos()
            self._debug['troop_box_right']['start'] = self._io.pos()
            self.troop_box_right = self._io.read_s4le()
            self._debug['troop_box_right']['end'] = self._io.pos()
        else:
            _animre_p, (self.troop_box_left, self.troop_box_right,) = _animre_r
            _animre_d = self._debug
            _animre_d['troop_box_left'] = {'start': _animre_p + 0, 'end': _animre_p + 4}
            _animre_d['troop_box_right'] = {'start': _animre_p + 4, 'end': _animre_p + 8}
        self._debug['num_frames_raw']['start'] = self._io.pos()
        self._debug['num_frames_raw']['arr'] = []
        self.num_frames_raw = []
        for i in range(34):
            self._debug['num_frames_raw']['arr'].append({'start': self._io.pos()})
            if i & 4095 == 4095:
                _animre_check(self._debug['num_frames_raw']['arr'], self._io)
            self.num_frames_raw.append(self._io.read_u1())
            self._debug['num_frames_raw']['arr'][i]['end'] = self._io.pos()

        self._debug['num_frames_raw']['end'] = self._io.pos()
        self._debug['sequences']['start'] = self._io.pos()
        self._debug['sequences']['arr'] = []
        self._raw_sequences = []
        self.sequences = []
        for i in range(34):
            self._debug['sequences']['arr'].append({'start': self._io.pos()})
            if i & 4095 == 4095:
                _animre_check(self._debug['sequences']['arr'], self._io)
            self._raw_sequences.append(self._io.read_bytes(16))
            _io__raw_sequences = KaitaiStream(BytesIO(self._raw_sequences[i]))
            _animre_place(_io__raw_sequences, self._io, self._debug['sequences']['arr'][i]['start'], None)
            _t_sequences = Frm.FrameSequence(i, _io__raw_sequences, self, self._root)
            try:
                _t_sequences._read()
            finally:
                self.sequences.append(_t_sequences)
            self._debug['sequences']['arr'][i]['end'] = self._io.pos()

        self._debug['sequences']['end'] = self._io.pos()
        self._debug['trailing']['start'] = self._io.pos()
        self.trailing = self._io.read_bytes_full()
        self._debug['trailing']['end'] = self._io.pos()
        _ = self.trailing
        if not len(_) == 0:
            raise kaitaistruct.ValidationExprError(self.trailing, self._io, u"/seq/18")


    def _fetch_instances(self):
        pass
        for i in range(len(self.x_offsets)):
            pass
            self.x_offsets[i]._fetch_instances()

        for i in range(len(self.idle_weights)):
            pass

        for i in range(len(self.idle_delays)):
            pass

        for i in range(len(self.projectile_offsets)):
            pass
            self.projectile_offsets[i]._fetch_instances()

        for i in range(len(self.projectile_angles)):
            pass

        for i in range(len(self.num_frames_raw)):
            pass

        for i in range(len(self.sequences)):
            pass
            self.sequences[i]._fetch_instances()


    class FrameSequence(KaitaiStruct):
        SEQ_FIELDS = ["frame_ids"]
        def __init__(self, slot, _io, _parent=None, _root=None):
            super(Frm.FrameSequence, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.slot = slot
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['frame_ids']['start'] = self._io.pos()
            self._debug['frame_ids']['arr'] = []
            self.frame_ids = []
            for i in range(16):
                self._debug['frame_ids']['arr'].append({'start': self._io.pos()})
                if i & 4095 == 4095:
                    _animre_check(self._debug['frame_ids']['arr'], self._io)
                self.frame_ids.append(self._io.read_u1())
                self._debug['frame_ids']['arr'][i]['end'] = self._io.pos()

            self._debug['frame_ids']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            for i in range(len(self.frame_ids)):
                pass

            _ = self.ids_before_fill
            if hasattr(self, '_m_ids_before_fill'):
                pass


        @property
        def animation(self):
            """The animation this slot holds (the engine's order; the community note swaps top and bottom)."""
            if hasattr(self, '_m_animation'):
                return self._m_animation

            self._m_animation = KaitaiStream.resolve_enum(Frm.Slot, self.slot)
            return getattr(self, '_m_animation', None)

        @property
        def ids_before_fill(self):
            """The frame ids up to the first 0xFF (the fill-derived reading)."""
            if hasattr(self, '_m_ids_before_fill'):
                return self._m_ids_before_fill

            _pos = self._io.pos()
            self._io.seek(0)
            self._debug['_m_ids_before_fill']['start'] = self._io.pos()
            self._m_ids_before_fill = KaitaiStream.bytes_terminate(self._io.read_bytes(16), 255, False)
            self._debug['_m_ids_before_fill']['end'] = self._io.pos()
            self._io.seek(_pos)
            return getattr(self, '_m_ids_before_fill', None)

        @property
        def len_by_fill(self):
            """Sequence length derived from the 0xFF fill; may disagree with num_frames in real files."""
            if hasattr(self, '_m_len_by_fill'):
                return self._m_len_by_fill

            self._m_len_by_fill = len(self.ids_before_fill)
            return getattr(self, '_m_len_by_fill', None)

        @property
        def num_frames(self):
            """Sequence length as the engine uses it (count byte clamped to 16)."""
            if hasattr(self, '_m_num_frames'):
                return self._m_num_frames

            self._m_num_frames = (16 if self.num_frames_raw > 16 else self.num_frames_raw)
            return getattr(self, '_m_num_frames', None)

        @property
        def num_frames_raw(self):
            """The stored count byte for this slot."""
            if hasattr(self, '_m_num_frames_raw'):
                return self._m_num_frames_raw

            self._m_num_frames_raw = self._parent.num_frames_raw[self.slot]
            return getattr(self, '_m_num_frames_raw', None)


    class MoveXOffsets(KaitaiStruct):
        SEQ_FIELDS = ["offsets"]
        def __init__(self, slot, _io, _parent=None, _root=None):
            super(Frm.MoveXOffsets, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.slot = slot
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['offsets']['start'] = self._io.pos()
            self._debug['offsets']['arr'] = []
            self.offsets = []
            for i in range(16):
                self._debug['offsets']['arr'].append({'start': self._io.pos()})
                if i & 4095 == 4095:
                    _animre_check(self._debug['offsets']['arr'], self._io)
                self.offsets.append(self._io.read_s1())
                self._debug['offsets']['arr'][i]['end'] = self._io.pos()

            self._debug['offsets']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            for i in range(len(self.offsets)):
                pass


        @property
        def animation(self):
            """The movement animation this slot holds (its number, and its name in the name column)."""
            if hasattr(self, '_m_animation'):
                return self._m_animation

            self._m_animation = KaitaiStream.resolve_enum(Frm.Slot, self.slot)
            return getattr(self, '_m_animation', None)


    class Point16(KaitaiStruct):
        SEQ_FIELDS = ["x", "y"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Frm.Point16, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            _animre_r = _animre_run(self._io, 4, _animre_run_3)
            if _animre_r is None:
                self._debug['x']['start'] = self._io.pos()
                self.x = self._io.read_s2le()
                self._debug['x']['end'] = self._io.pos()
                self._debug['y']['start'] = self._io.pos()
                self.y = self._io.read_s2le()
                self._debug['y']['end'] = self._io.pos()
            else:
                _animre_p, (self.x, self.y,) = _animre_r
                _animre_d = self._debug
                _animre_d['x'] = {'start': _animre_p + 0, 'end': _animre_p + 2}
                _animre_d['y'] = {'start': _animre_p + 2, 'end': _animre_p + 4}


        def _fetch_instances(self):
            pass


    @property
    def num_idles(self):
        """Idle count as the engine uses it (clamped to 5)."""
        if hasattr(self, '_m_num_idles'):
            return self._m_num_idles

        self._m_num_idles = (5 if self.num_idles_raw > 5 else self.num_idles_raw)
        return getattr(self, '_m_num_idles', None)

    @property
    def num_projectile_frames(self):
        """Projectile sprite count as the engine uses it (clamped to 12)."""
        if hasattr(self, '_m_num_projectile_frames'):
            return self._m_num_projectile_frames

        self._m_num_projectile_frames = (12 if self.num_projectile_frames_raw > 12 else self.num_projectile_frames_raw)
        return getattr(self, '_m_num_projectile_frames', None)

def _animre_check(arr, io):  # animre replaces this with its guard (animre/spec/guard.py)
    pass

def _animre_place(sub, io, start, stored):  # animre replaces these (animre/spec/streams.py)
    pass


def _animre_bit_start(io, d):
    return io.pos()


def _animre_bit_end(io, d):
    return io.pos()

def _animre_run(io, n, unpack):  # animre replaces this (animre/spec/streams.py)
    return None


import struct as _animre_struct  # noqa: E402
_animre_run_0 = _animre_struct.Struct('<Bhh').unpack
_animre_run_1 = _animre_struct.Struct('<IIII').unpack
_animre_run_2 = _animre_struct.Struct('<ii').unpack
_animre_run_3 = _animre_struct.Struct('<hh').unpack
