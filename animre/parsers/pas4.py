# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
from enum import IntEnum
import collections


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class Pas4(KaitaiStruct):
    """The parameterized animation state database ("PAS4") that a character uses
    to pick an animation from gameplay parameters: a list of anim states (fall,
    locomotion, melee attack ...), each with typed parameter descriptions
    (type, weighting function, weight, min, max) and a table of animations
    giving one value per parameter.
    
    There is no length field: the block ends after its last anim state. It is
    embedded in ANCS (Metroid Prime 1/2) and CHAR (Prime 3, DKC) files and is
    found there by its magic; this spec reads a bare block (bytes after the
    block are not part of it and are not read).
    
    Value widths follow the engine readers (metaforce CPASParmInfo and
    CPASAnimState): Bool values (min, max, per-animation values) are 1 byte,
    Int32 / UInt32 / Enum / Real are 4 bytes (Real is f4). An unknown parm
    type takes 0 bytes in every engine reader; here its values are absent and
    `is_known_type` is false, so the reading is flagged instead of guessed.
    
    Every count is checked against the bytes left before looping: an anim
    state takes at least 12 bytes, a parm info at least 12 (13 or more for a
    known type), an anim info at least 4.
    
    Tables (animre): `pas4` (one row per block), `pas4_states` (key `state`),
    `pas4_parms` (keys `state`, `parm`), `pas4_anims` (keys `state`, `anim`)
    and `pas4_anim_values` (keys `state`, `anim`, `parm`: one row per value,
    `parm` is the position of the parm info the value belongs to). A value
    (min, max, an anim's) is two columns: `integer` for Int32, UInt32, Bool
    and Enum parms, `real` for Real parms; the other is NA.
    
    .. seealso::
       Retro Modding Wiki, Parameterized Animation State Database page
    
    
    .. seealso::
       metaforce engine source (CPASDatabase, CPASAnimState, CPASParmInfo, CPASAnimInfo readers)
    """

    class AnimStateType(IntEnum):
        fall = 0
        get_up = 1
        lie_on_ground = 2
        step = 3
        death = 4
        locomotion = 5
        knock_back = 6
        melee_attack = 7
        turn = 8
        loop_attack = 9
        loop_reaction = 10
        ground_hit = 11
        generate = 12
        jump = 13
        hurled = 14
        slide = 15
        taunt = 16
        scripted = 17
        projectile_attack = 18
        cover = 19
        wall_hang = 20
        additive_idle = 21
        additive_aim = 22
        additive_flinch = 23
        additive_reaction = 24

    class ParmType(IntEnum):
        int32 = 0
        uint32 = 1
        real = 2
        bool = 3
        enum = 4

    class WeightFunction(IntEnum):
        exact_match = 0
        percent_error = 1
        angular_percent = 2
        no_weight = 3
    SEQ_FIELDS = ["magic", "num_anim_states", "default_anim_state", "anim_states"]
    def __init__(self, _io, _parent=None, _root=None):
        super(Pas4, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._debug = collections.defaultdict(dict)

    def _read(self):
        self._debug['magic']['start'] = self._io.pos()
        self.magic = self._io.read_bytes(4)
        self._debug['magic']['end'] = self._io.pos()
        if not self.magic == b"\x50\x41\x53\x34":
            raise kaitaistruct.ValidationNotEqualError(b"\x50\x41\x53\x34", self.magic, self._io, u"/seq/0")
        self._debug['num_anim_states']['start'] = self._io.pos()
        self.num_anim_states = self._io.read_u4be()
        self._debug['num_anim_states']['end'] = self._io.pos()
        _ = self.num_anim_states
        if not _ * 12 <= (self._io.size() - self._io.pos()) - 4:
            raise kaitaistruct.ValidationExprError(self.num_anim_states, self._io, u"/seq/1")
        self._debug['default_anim_state']['start'] = self._io.pos()
        self.default_anim_state = self._io.read_s4be()
        self._debug['default_anim_state']['end'] = self._io.pos()
        self._debug['anim_states']['start'] = self._io.pos()
        self._debug['anim_states']['arr'] = []
        self.anim_states = []
        for i in range(self.num_anim_states):
            self._debug['anim_states']['arr'].append({'start': self._io.pos()})
            if i & 4095 == 4095:
                _animre_check(self._debug['anim_states']['arr'], self._io)
            _t_anim_states = Pas4.AnimState(i, self._io, self, self._root)
            try:
                _t_anim_states._read()
            finally:
                self.anim_states.append(_t_anim_states)
            self._debug['anim_states']['arr'][i]['end'] = self._io.pos()

        self._debug['anim_states']['end'] = self._io.pos()


    def _fetch_instances(self):
        pass
        for i in range(len(self.anim_states)):
            pass
            self.anim_states[i]._fetch_instances()


    class AnimInfo(KaitaiStruct):
        """One selectable animation (note, "Anim Info")."""
        SEQ_FIELDS = ["anim_id", "values"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Pas4.AnimInfo, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['anim_id']['start'] = self._io.pos()
            self.anim_id = self._io.read_u4be()
            self._debug['anim_id']['end'] = self._io.pos()
            self._debug['values']['start'] = self._io.pos()
            self._debug['values']['arr'] = []
            self.values = []
            for i in range(self._parent.num_parm_infos):
                self._debug['values']['arr'].append({'start': self._io.pos()})
                if i & 4095 == 4095:
                    _animre_check(self._debug['values']['arr'], self._io)
                _t_values = Pas4.ParmValue(self._parent.parm_infos[i].parm_type, self._io, self, self._root)
                try:
                    _t_values._read()
                finally:
                    self.values.append(_t_values)
                self._debug['values']['arr'][i]['end'] = self._io.pos()

            self._debug['values']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            for i in range(len(self.values)):
                pass
                self.values[i]._fetch_instances()



    class AnimState(KaitaiStruct):
        """One anim state (note, "Anim State")."""
        SEQ_FIELDS = ["state_type", "num_parm_infos", "num_anim_infos", "parm_infos", "anim_infos"]
        def __init__(self, state_index, _io, _parent=None, _root=None):
            super(Pas4.AnimState, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.state_index = state_index
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['state_type']['start'] = self._io.pos()
            self.state_type = KaitaiStream.resolve_enum(Pas4.AnimStateType, self._io.read_u4be())
            self._debug['state_type']['end'] = self._io.pos()
            self._debug['num_parm_infos']['start'] = self._io.pos()
            self.num_parm_infos = self._io.read_u4be()
            self._debug['num_parm_infos']['end'] = self._io.pos()
            _ = self.num_parm_infos
            if not _ * 12 <= (self._io.size() - self._io.pos()) - 4:
                raise kaitaistruct.ValidationExprError(self.num_parm_infos, self._io, u"/types/anim_state/seq/1")
            self._debug['num_anim_infos']['start'] = self._io.pos()
            self.num_anim_infos = self._io.read_u4be()
            self._debug['num_anim_infos']['end'] = self._io.pos()
            _ = self.num_anim_infos
            if not _ * 4 + self.num_parm_infos * 12 <= self._io.size() - self._io.pos():
                raise kaitaistruct.ValidationExprError(self.num_anim_infos, self._io, u"/types/anim_state/seq/2")
            self._debug['parm_infos']['start'] = self._io.pos()
            self._debug['parm_infos']['arr'] = []
            self.parm_infos = []
            for i in range(self.num_parm_infos):
                self._debug['parm_infos']['arr'].append({'start': self._io.pos()})
                if i & 4095 == 4095:
                    _animre_check(self._debug['parm_infos']['arr'], self._io)
                _t_parm_infos = Pas4.ParmInfo(self._io, self, self._root)
                try:
                    _t_parm_infos._read()
                finally:
                    self.parm_infos.append(_t_parm_infos)
                self._debug['parm_infos']['arr'][i]['end'] = self._io.pos()

            self._debug['parm_infos']['end'] = self._io.pos()
            self._debug['anim_infos']['start'] = self._io.pos()
            self._debug['anim_infos']['arr'] = []
            self.anim_infos = []
            for i in range(self.num_anim_infos):
                self._debug['anim_infos']['arr'].append({'start': self._io.pos()})
                if i & 4095 == 4095:
                    _animre_check(self._debug['anim_infos']['arr'], self._io)
                _t_anim_infos = Pas4.AnimInfo(self._io, self, self._root)
                try:
                    _t_anim_infos._read()
                finally:
                    self.anim_infos.append(_t_anim_infos)
                self._debug['anim_infos']['arr'][i]['end'] = self._io.pos()

            self._debug['anim_infos']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            for i in range(len(self.parm_infos)):
                pass
                self.parm_infos[i]._fetch_instances()

            for i in range(len(self.anim_infos)):
                pass
                self.anim_infos[i]._fetch_instances()



    class ParmInfo(KaitaiStruct):
        """One parameter description (note, "Parm Info")."""
        SEQ_FIELDS = ["parm_type", "weight_function", "weight", "min_value", "max_value"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Pas4.ParmInfo, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['parm_type']['start'] = self._io.pos()
            self.parm_type = KaitaiStream.resolve_enum(Pas4.ParmType, self._io.read_u4be())
            self._debug['parm_type']['end'] = self._io.pos()
            self._debug['weight_function']['start'] = self._io.pos()
            self.weight_function = KaitaiStream.resolve_enum(Pas4.WeightFunction, self._io.read_u4be())
            self._debug['weight_function']['end'] = self._io.pos()
            self._debug['weight']['start'] = self._io.pos()
            self.weight = self._io.read_f4be()
            self._debug['weight']['end'] = self._io.pos()
            self._debug['min_value']['start'] = self._io.pos()
            self.min_value = Pas4.ParmValue(self.parm_type, self._io, self, self._root)
            self.min_value._read()
            self._debug['min_value']['end'] = self._io.pos()
            self._debug['max_value']['start'] = self._io.pos()
            self.max_value = Pas4.ParmValue(self.parm_type, self._io, self, self._root)
            self.max_value._read()
            self._debug['max_value']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            self.min_value._fetch_instances()
            self.max_value._fetch_instances()

        @property
        def is_known_type(self):
            """False when parm_type is not 0-4; then min, max and anim values take 0 bytes (engine behaviour), not a guess."""
            if hasattr(self, '_m_is_known_type'):
                return self._m_is_known_type

            self._m_is_known_type = self.min_value.is_known_type
            return getattr(self, '_m_is_known_type', None)


    class ParmValue(KaitaiStruct):
        """A value whose width and type come from a parm type (min, max, or an
        anim's value). It is read into one field per kind of number, `integer`
        or `real`, so integers stay integers (a uint32 such as 1816825000 is
        never a float) and reals stay floats; the parm type says which.
        """
        SEQ_FIELDS = ["integer", "real"]
        def __init__(self, parm_type, _io, _parent=None, _root=None):
            super(Pas4.ParmValue, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.parm_type = parm_type
            self._debug = collections.defaultdict(dict)

        def _read(self):
            if  ((self.is_known_type) and (self.parm_type != Pas4.ParmType.real)) :
                pass
                self._debug['integer']['start'] = self._io.pos()
                _on = self.parm_type
                if _on == Pas4.ParmType.bool:
                    pass
                    self.integer = self._io.read_u1()
                elif _on == Pas4.ParmType.enum:
                    pass
                    self.integer = self._io.read_s4be()
                elif _on == Pas4.ParmType.int32:
                    pass
                    self.integer = self._io.read_s4be()
                elif _on == Pas4.ParmType.uint32:
                    pass
                    self.integer = self._io.read_u4be()
                self._debug['integer']['end'] = self._io.pos()

            if self.parm_type == Pas4.ParmType.real:
                pass
                self._debug['real']['start'] = self._io.pos()
                self.real = self._io.read_f4be()
                self._debug['real']['end'] = self._io.pos()



        def _fetch_instances(self):
            pass
            if  ((self.is_known_type) and (self.parm_type != Pas4.ParmType.real)) :
                pass
                _on = self.parm_type
                if _on == Pas4.ParmType.bool:
                    pass
                elif _on == Pas4.ParmType.enum:
                    pass
                elif _on == Pas4.ParmType.int32:
                    pass
                elif _on == Pas4.ParmType.uint32:
                    pass

            if self.parm_type == Pas4.ParmType.real:
                pass


        @property
        def is_known_type(self):
            """False for a parm type outside 0-4; such a value takes 0 bytes and is not read."""
            if hasattr(self, '_m_is_known_type'):
                return self._m_is_known_type

            self._m_is_known_type =  ((self.parm_type == Pas4.ParmType.int32) or (self.parm_type == Pas4.ParmType.uint32) or (self.parm_type == Pas4.ParmType.real) or (self.parm_type == Pas4.ParmType.bool) or (self.parm_type == Pas4.ParmType.enum)) 
            return getattr(self, '_m_is_known_type', None)


    @property
    def len_block(self):
        """Length of the block in bytes: the stream position after the last anim
        state, i.e. where the engine reader stops (evaluated after the block is
        parsed; nothing is read after the last seq field).
        """
        if hasattr(self, '_m_len_block'):
            return self._m_len_block

        self._m_len_block = self._io.pos()
        return getattr(self, '_m_len_block', None)

def _animre_check(arr, io):  # animre replaces this with its guard (animre/spec/guard.py)
    pass
