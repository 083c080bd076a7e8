# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
import omf_common
from enum import IntEnum
import collections


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class Af(KaitaiStruct):
    """`FIGHTR<n>.AF` describes one HAR (robot): a 29-byte header of speeds and
    endurance, then moves (animation + 21-byte move footer + move string +
    footer string) until a move number >= 70 (writers use 250), then the
    30-byte sound table whose last five entries spell `FGHED`.
    
    Readings follow the openomf engine source where it disagrees with the
    community notes: the
    header's unknown word is the "exec window", the note's "unknown byte + 29
    sounds" is one 30-byte table, and the footer unknowns are named by their
    offset inside the footer (unknown_4 .. unknown_11, unknown_18).
    
    .. seealso::
       One Must Fall 2097 community format notes, HAR File Format (.AF)
    
    
    .. seealso::
       openomf engine source (AF file reader)
    """

    class MoveCategory(IntEnum):
        misc = 0
        close = 2
        low = 4
        medium = 5
        high = 6
        jumping = 7
        projectile = 8
        basic = 9
        victory_or_fire_ice = 10
        defeat_or_victory = 11
        scrap = 12
        destruction = 13
    SEQ_FIELDS = ["fighter_id", "exec_window", "endurance", "unknown_8", "health", "forward_speed", "reverse_speed", "jump_speed", "fall_speed", "unknown_27", "unknown_28", "moves", "sound_table", "trailing"]
    def __init__(self, _io, _parent=None, _root=None):
        super(Af, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._debug = collections.defaultdict(dict)

    def _read(self):
        _animre_r = _animre_run(self._io, 29, _animre_run_0)
        if _animre_r is None:
            self._debug['fighter_id']['start'] = self._io.pos()
            self.fighter_id = self._io.read_u2le()
            self._debug['fighter_id']['end'] = self._io.pos()
            self._debug['exec_window']['start'] = self._io.pos()
            self.exec_window = self._io.read_u2le()
            self._debug['exec_window']['end'] = self._io.pos()
            self._debug['endurance']['start'] = self._io.pos()
            self.endurance = self._io.read_u4le()
            self._debug['endurance']['end'] = self._io.pos()
            self._debug['unknown_8']['start'] = self._io.pos()
            self.unknown_8 = self._io.read_u1()
            self._debug['unknown_8']['end'] = self._io.pos()
            self._debug['health']['start'] = self._io.pos()
            self.health = self._io.read_u2le()
            self._debug['health']['end'] = self._io.pos()
            self._debug['forward_speed']['start'] = self._io.pos()
            self.forward_speed = self._io.read_s4le()
            self._debug['forward_speed']['end'] = self._io.pos()
            self._debug['reverse_speed']['start'] = self._io.pos()
            self.reverse_speed = self._io.read_s4le()
            self._debug['reverse_speed']['end'] = self._io.pos()
            self._debug['jump_speed']['start'] = self._io.pos()
            self.jump_speed = self._io.read_s4le()
            self._debug['jump_speed']['end'] = self._io.pos()
            self._debug['fall_speed']['start'] = self._io.pos()
            self.fall_speed = self._io.read_s4le()
            self._debug['fall_speed']['end'] = self._io.pos()
            self._debug['unknown_27']['start'] = self._io.pos()
            self.unknown_27 = self._io.read_u1()
            self._debug['unknown_27']['end'] = self._io.pos()
            self._debug['unknown_28']['start'] = self._io.pos()
            self.unknown_28 = self._io.read_u1()
            self._debug['unknown_28']['end'] = self._io.pos()
        else:
            _animre_p, (self.fighter_id, self.exec_window, self.endurance, self.unknown_8, self.health, self.forward_speed, self.reverse_speed, self.jump_speed, self.fall_speed, self.unknown_27, self.unknown_28,) = _animre_r
            _animre_d = self._debug
            _animre_d['fighter_id'] = {'start': _animre_p + 0, 'end': _animre_p + 2}
            _animre_d['exec_window'] = {'start': _animre_p + 2, 'end': _animre_p + 4}
            _animre_d['endurance'] = {'start': _animre_p + 4, 'end': _animre_p + 8}
            _animre_d['unknown_8'] = {'start': _animre_p + 8, 'end': _animre_p + 9}
            _animre_d['health'] = {'start': _animre_p + 9, 'end': _animre_p + 11}
            _animre_d['forward_speed'] = {'start': _animre_p + 11, 'end': _animre_p + 15}
            _animre_d['reverse_speed'] = {'start': _animre_p + 15, 'end': _animre_p + 19}
            _animre_d['jump_speed'] = {'start': _animre_p + 19, 'end': _animre_p + 23}
            _animre_d['fall_speed'] = {'start': _animre_p + 23, 'end': _animre_p + 27}
            _animre_d['unknown_27'] = {'start': _animre_p + 27, 'end': _animre_p + 28}
            _animre_d['unknown_28'] = {'start': _animre_p + 28, 'end': _animre_p + 29}
        self._debug['moves']['start'] = self._io.pos()
        self._debug['moves']['arr'] = []
        self.moves = []
        i = 0
        while True:
            self._debug['moves']['arr'].append({'start': self._io.pos()})
            if i & 4095 == 4095:
                _animre_check(self._debug['moves']['arr'], self._io)
            _t_moves = Af.MoveRecord(self._io, self, self._root)
            try:
                _t_moves._read()
            finally:
                _ = _t_moves
                self.moves.append(_)
            self._debug['moves']['arr'][len(self.moves) - 1]['end'] = self._io.pos()
            if _.move_number >= 70:
                break
            i += 1
        self._debug['moves']['end'] = self._io.pos()
        self._debug['sound_table']['start'] = self._io.pos()
        self.sound_table = omf_common.OmfCommon.SoundTable(self._io)
        self.sound_table._read()
        self._debug['sound_table']['end'] = self._io.pos()
        self._debug['trailing']['start'] = self._io.pos()
        self.trailing = self._io.read_bytes_full()
        self._debug['trailing']['end'] = self._io.pos()


    def _fetch_instances(self):
        pass
        for i in range(len(self.moves)):
            pass
            self.moves[i]._fetch_instances()

        self.sound_table._fetch_instances()

    class MoveFooter(KaitaiStruct):
        """21 bytes of move properties, the fixed 21-byte move string and the
        footer string (length including its NUL). Offsets in the field docs
        are relative to the footer start.
        """
        SEQ_FIELDS = ["ai_flags", "pos_constraint", "unknown_4", "unknown_5", "unknown_6", "unknown_7", "unknown_8", "unknown_9", "unknown_10", "unknown_11", "next_anim_on_hit", "category", "block_damage", "block_stun", "successor_id", "damage", "unknown_18", "extra_string_selector", "points", "move_string", "footer_string"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Af.MoveFooter, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            _animre_r = _animre_run(self._io, 13, _animre_run_1)
            if _animre_r is None:
                self._debug['ai_flags']['start'] = self._io.pos()
                self.ai_flags = self._io.read_u2le()
                self._debug['ai_flags']['end'] = self._io.pos()
                self._debug['pos_constraint']['start'] = self._io.pos()
                self.pos_constraint = self._io.read_u2le()
                self._debug['pos_constraint']['end'] = self._io.pos()
                self._debug['unknown_4']['start'] = self._io.pos()
                self.unknown_4 = self._io.read_u1()
                self._debug['unknown_4']['end'] = self._io.pos()
                self._debug['unknown_5']['start'] = self._io.pos()
                self.unknown_5 = self._io.read_u1()
                self._debug['unknown_5']['end'] = self._io.pos()
                self._debug['unknown_6']['start'] = self._io.pos()
                self.unknown_6 = self._io.read_u1()
                self._debug['unknown_6']['end'] = self._io.pos()
                self._debug['unknown_7']['start'] = self._io.pos()
                self.unknown_7 = self._io.read_u1()
                self._debug['unknown_7']['end'] = self._io.pos()
                self._debug['unknown_8']['start'] = self._io.pos()
                self.unknown_8 = self._io.read_u1()
                self._debug['unknown_8']['end'] = self._io.pos()
                self._debug['unknown_9']['start'] = self._io.pos()
                self.unknown_9 = self._io.read_u1()
                self._debug['unknown_9']['end'] = self._io.pos()
                self._debug['unknown_10']['start'] = self._io.pos()
                self.unknown_10 = self._io.read_u1()
                self._debug['unknown_10']['end'] = self._io.pos()
                self._debug['unknown_11']['start'] = self._io.pos()
                self.unknown_11 = self._io.read_u1()
                self._debug['unknown_11']['end'] = self._io.pos()
                self._debug['next_anim_on_hit']['start'] = self._io.pos()
                self.next_anim_on_hit = self._io.read_u1()
                self._debug['next_anim_on_hit']['end'] = self._io.pos()
            else:
                _animre_p, (self.ai_flags, self.pos_constraint, self.unknown_4, self.unknown_5, self.unknown_6, self.unknown_7, self.unknown_8, self.unknown_9, self.unknown_10, self.unknown_11, self.next_anim_on_hit,) = _animre_r
                _animre_d = self._debug
                _animre_d['ai_flags'] = {'start': _animre_p + 0, 'end': _animre_p + 2}
                _animre_d['pos_constraint'] = {'start': _animre_p + 2, 'end': _animre_p + 4}
                _animre_d['unknown_4'] = {'start': _animre_p + 4, 'end': _animre_p + 5}
                _animre_d['unknown_5'] = {'start': _animre_p + 5, 'end': _animre_p + 6}
                _animre_d['unknown_6'] = {'start': _animre_p + 6, 'end': _animre_p + 7}
                _animre_d['unknown_7'] = {'start': _animre_p + 7, 'end': _animre_p + 8}
                _animre_d['unknown_8'] = {'start': _animre_p + 8, 'end': _animre_p + 9}
                _animre_d['unknown_9'] = {'start': _animre_p + 9, 'end': _animre_p + 10}
                _animre_d['unknown_10'] = {'start': _animre_p + 10, 'end': _animre_p + 11}
                _animre_d['unknown_11'] = {'start': _animre_p + 11, 'end': _animre_p + 12}
                _animre_d['next_anim_on_hit'] = {'start': _animre_p + 12, 'end': _animre_p + 13}
            self._debug['category']['start'] = self._io.pos()
            self.category = KaitaiStream.resolve_enum(Af.MoveCategory, self._io.read_u1())
            self._debug['category']['end'] = self._io.pos()
            _animre_r = _animre_run(self._io, 7, _animre_run_2)
            if _animre_r is None:
                self._debug['block_damage']['start'] = self._io.pos()
                self.block_damage = self._io.read_u1()
                self._debug['block_damage']['end'] = self._io.pos()
                self._debug['block_stun']['start'] = self._io.pos()
                self.block_stun = self._io.read_u1()
                self._debug['block_stun']['end'] = self._io.pos()
                self._debug['successor_id']['start'] = self._io.pos()
                self.successor_id = self._io.read_u1()
                self._debug['successor_id']['end'] = self._io.pos()
                self._debug['damage']['start'] = self._io.pos()
                self.damage = self._io.read_u1()
                self._debug['damage']['end'] = self._io.pos()
                self._debug['unknown_18']['start'] = self._io.pos()
                self.unknown_18 = self._io.read_u1()
                self._debug['unknown_18']['end'] = self._io.pos()
                self._debug['extra_string_selector']['start'] = self._io.pos()
                self.extra_string_selector = self._io.read_u1()
                self._debug['extra_string_selector']['end'] = self._io.pos()
                self._debug['points']['start'] = self._io.pos()
                self.points = self._io.read_u1()
                self._debug['points']['end'] = self._io.pos()
            else:
                _animre_p, (self.block_damage, self.block_stun, self.successor_id, self.damage, self.unknown_18, self.extra_string_selector, self.points,) = _animre_r
                _animre_d = self._debug
                _animre_d['block_damage'] = {'start': _animre_p + 0, 'end': _animre_p + 1}
                _animre_d['block_stun'] = {'start': _animre_p + 1, 'end': _animre_p + 2}
                _animre_d['successor_id'] = {'start': _animre_p + 2, 'end': _animre_p + 3}
                _animre_d['damage'] = {'start': _animre_p + 3, 'end': _animre_p + 4}
                _animre_d['unknown_18'] = {'start': _animre_p + 4, 'end': _animre_p + 5}
                _animre_d['extra_string_selector'] = {'start': _animre_p + 5, 'end': _animre_p + 6}
                _animre_d['points'] = {'start': _animre_p + 6, 'end': _animre_p + 7}
            self._debug['move_string']['start'] = self._io.pos()
            self._raw_move_string = self._io.read_bytes(21)
            _io__raw_move_string = KaitaiStream(BytesIO(self._raw_move_string))
            _animre_place(_io__raw_move_string, self._io, self._debug['move_string']['start'], None)
            self.move_string = Af.MoveString(_io__raw_move_string, self, self._root)
            self.move_string._read()
            self._debug['move_string']['end'] = self._io.pos()
            self._debug['footer_string']['start'] = self._io.pos()
            self.footer_string = omf_common.OmfCommon.FooterString(self._io)
            self.footer_string._read()
            self._debug['footer_string']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            self.move_string._fetch_instances()
            self.footer_string._fetch_instances()


    class MoveRecord(KaitaiStruct):
        """One move number followed, when it is < 70, by an animation and a move footer."""
        SEQ_FIELDS = ["move_number", "animation", "footer"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Af.MoveRecord, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['move_number']['start'] = self._io.pos()
            self.move_number = self._io.read_u1()
            self._debug['move_number']['end'] = self._io.pos()
            if self.move_number < 70:
                pass
                self._debug['animation']['start'] = self._io.pos()
                self.animation = omf_common.OmfCommon.Animation(self._io)
                self.animation._read()
                self._debug['animation']['end'] = self._io.pos()

            if self.move_number < 70:
                pass
                self._debug['footer']['start'] = self._io.pos()
                self.footer = Af.MoveFooter(self._io, self, self._root)
                self.footer._read()
                self._debug['footer']['end'] = self._io.pos()



        def _fetch_instances(self):
            pass
            if self.move_number < 70:
                pass
                self.animation._fetch_instances()

            if self.move_number < 70:
                pass
                self.footer._fetch_instances()



    class MoveString(KaitaiStruct):
        """Fixed 21-byte move string. The text ends at the first NUL; the bytes
        after it are not always zero (the note suspects animation labels), so
        the raw 21 bytes are kept as well.
        """
        SEQ_FIELDS = ["raw"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Af.MoveString, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['raw']['start'] = self._io.pos()
            self.raw = self._io.read_bytes(21)
            self._debug['raw']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            _ = self.text
            if hasattr(self, '_m_text'):
                pass


        @property
        def text(self):
            """The key-combo text, up to the first NUL."""
            if hasattr(self, '_m_text'):
                return self._m_text

            _pos = self._io.pos()
            self._io.seek(0)
            self._debug['_m_text']['start'] = self._io.pos()
            self._m_text = (KaitaiStream.bytes_terminate(self._io.read_bytes(21), 0, False)).decode(u"ISO-8859-1")
            self._debug['_m_text']['end'] = self._io.pos()
            self._io.seek(_pos)
            return getattr(self, '_m_text', None)


    @property
    def num_moves(self):
        """Number of moves (without the terminator record)."""
        if hasattr(self, '_m_num_moves'):
            return self._m_num_moves

        self._m_num_moves = len(self.moves) - 1
        return getattr(self, '_m_num_moves', None)

    @property
    def terminator(self):
        """Move number of the terminator record (>= 70; 250 in all known files); its byte is the one before the sound table."""
        if hasattr(self, '_m_terminator'):
            return self._m_terminator

        self._m_terminator = self.moves[-1].move_number
        return getattr(self, '_m_terminator', None)

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
_animre_run_0 = _animre_struct.Struct('<HHIBHiiiiBB').unpack
_animre_run_1 = _animre_struct.Struct('<HHBBBBBBBBB').unpack
_animre_run_2 = _animre_struct.Struct('<BBBBBBB').unpack
