# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
from enum import IntEnum
import collections


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class Mot(KaitaiStruct):
    """A character's motion file (`files/chr/<chr>/0000.mot`, `0001.mot`, ...):
    a 16-byte MOT header, one absolute u4 offset per animation id (0 = the id
    has no animation), then the animations themselves ("GNTA", an unofficial
    name), 16-byte aligned and stored in descending id order. A GNTA is a
    16-byte header followed by one 0x20-byte header per bone track; each track
    points (relative to the GNTA start) at its key times (f4, frame / 60) and
    its key coordinates (four components x, y, z, w per key, 16-bit or f32).
    A 16-bit component is the upper half of an IEEE f32 (value = bits << 16,
    0x4048 -> 3.125): it is read raw (x_raw ... w_raw, u2) and its float value
    (x ... w) is computed here from sign, exponent and mantissa bits; the same
    decoding in numpy is animre.decode.mot.half_to_float. Tables: mot (one row
    per file), mot_animations (present ids only, key anim_id), mot_tracks (key
    track) and mot_keys (key key: time and x, y, z, w per key frame). The
    16-byte alignment padding after the offset table and after every key array
    is kept as bytes: in real files it is non-zero junk. Every count and offset
    is checked against the file size before anything is looped over or
    allocated.
    
    .. seealso::
       GNT4 community motion-format notes by Sifo and Icylittlething (MOT Header, GNTA Header, Bone Animation Header)
    
    
    .. seealso::
       animre format notes on GNT4 MOT/GNTA (16-bit components, descending storage order, junk padding)
    """

    class Bone(IntEnum):
        y = 0
        x = 1
        z = 2
        hip = 3
        waist = 4
        breast = 5
        head = 6
        right_collar = 7
        right_high_arm = 8
        right_lower_arm = 9
        right_hand = 10
        left_collar = 11
        left_high_arm = 12
        left_lower_arm = 13
        left_hand = 14
        right_high_leg = 15
        right_lower_leg = 16
        right_foot = 17
        left_high_leg = 18
        left_lower_leg = 19
        left_foot = 20
        neck = 21
        right_high_arm_ex = 30
        right_high_arm_ex_eff = 31
        left_high_arm_ex = 35
        left_high_arm_ex_eff = 36
        right_high_leg_ex = 40
        right_high_leg_ex_eff = 41
        right_toe = 45
        left_high_leg_ex = 46
        left_high_leg_ex_eff = 47
        left_toe = 51
        right_thumb_1 = 60
        right_thumb_2 = 61
        right_thumb_3 = 62
        right_index_finger_1 = 63
        right_index_finger_2 = 64
        right_index_finger_3 = 65
        right_middle_finger_1 = 66
        right_middle_finger_2 = 67
        right_middle_finger_3 = 68
        right_ring_finger_1 = 69
        right_ring_finger_2 = 70
        right_ring_finger_3 = 71
        right_pinky_1 = 72
        right_pinky_2 = 73
        right_pinky_3 = 74
        left_thumb_1 = 75
        left_thumb_2 = 76
        left_thumb_3 = 77
        left_index_finger_1 = 78
        left_index_finger_2 = 79
        left_index_finger_3 = 80
        left_middle_finger_1 = 81
        left_middle_finger_2 = 82
        left_middle_finger_3 = 83
        left_ring_finger_1 = 84
        left_ring_finger_2 = 85
        left_ring_finger_3 = 86
        left_pinky_1 = 87
        left_pinky_2 = 88
        left_pinky_3 = 89
        mouth_top_lip = 92
        jaw = 93
        mouth_right_side = 94
        mouth_left_side = 95
        mouth_bottom_lip = 102
        pelvic_bone = 110
        hair_base = 111
        hair_right_1 = 112
        hair_right_2 = 113
        hair_right_3 = 114
        hair_left_1 = 116
        hair_left_2 = 117
        hair_left_3 = 118
        upper_breast = 119
        lower_breast = 120
        root = 65535

    class TrackFlag(IntEnum):
        translate = 1
        scale = 2
        rotate = 8
        enabled = 32
        disabled = 64
    SEQ_FIELDS = ["unknown_0", "num_anim_ids", "len_header", "len_file", "anims"]
    def __init__(self, _io, _parent=None, _root=None):
        super(Mot, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._debug = collections.defaultdict(dict)

    def _read(self):
        _animre_r = _animre_run(self._io, 8, _animre_run_0)
        if _animre_r is None:
            self._debug['unknown_0']['start'] = self._io.pos()
            self.unknown_0 = self._io.read_u4be()
            self._debug['unknown_0']['end'] = self._io.pos()
            self._debug['num_anim_ids']['start'] = self._io.pos()
            self.num_anim_ids = self._io.read_u4be()
            self._debug['num_anim_ids']['end'] = self._io.pos()
        else:
            _animre_p, (self.unknown_0, self.num_anim_ids,) = _animre_r
            _animre_d = self._debug
            _animre_d['unknown_0'] = {'start': _animre_p + 0, 'end': _animre_p + 4}
            _animre_d['num_anim_ids'] = {'start': _animre_p + 4, 'end': _animre_p + 8}
        _ = self.num_anim_ids
        if not _ * 4 <= self._io.size() - 16:
            raise kaitaistruct.ValidationExprError(self.num_anim_ids, self._io, u"/seq/1")
        self._debug['len_header']['start'] = self._io.pos()
        self.len_header = self._io.read_u4be()
        self._debug['len_header']['end'] = self._io.pos()
        if not self.len_header == 16:
            raise kaitaistruct.ValidationNotEqualError(16, self.len_header, self._io, u"/seq/2")
        self._debug['len_file']['start'] = self._io.pos()
        self.len_file = self._io.read_u4be()
        self._debug['len_file']['end'] = self._io.pos()
        self._debug['anims']['start'] = self._io.pos()
        self._debug['anims']['arr'] = []
        self.anims = []
        for i in range(self.num_anim_ids):
            self._debug['anims']['arr'].append({'start': self._io.pos()})
            if i & 4095 == 4095:
                _animre_check(self._debug['anims']['arr'], self._io)
            _t_anims = Mot.AnimSlot(i, self._io, self, self._root)
            try:
                _t_anims._read()
            finally:
                self.anims.append(_t_anims)
            self._debug['anims']['arr'][i]['end'] = self._io.pos()

        self._debug['anims']['end'] = self._io.pos()


    def _fetch_instances(self):
        pass
        for i in range(len(self.anims)):
            pass
            self.anims[i]._fetch_instances()

        _ = self.pad_offsets
        if hasattr(self, '_m_pad_offsets'):
            pass


    class AnimSlot(KaitaiStruct):
        SEQ_FIELDS = ["ofs_gnta"]
        def __init__(self, anim_id, _io, _parent=None, _root=None):
            super(Mot.AnimSlot, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.anim_id = anim_id
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['ofs_gnta']['start'] = self._io.pos()
            self.ofs_gnta = self._io.read_u4be()
            self._debug['ofs_gnta']['end'] = self._io.pos()
            _ = self.ofs_gnta
            if not  ((_ == 0) or ( ((_ >= self._root.ofs_offsets_end) and (_ <= self._io.size() - 16)) )) :
                raise kaitaistruct.ValidationExprError(self.ofs_gnta, self._io, u"/types/anim_slot/seq/0")


        def _fetch_instances(self):
            pass
            _ = self.gnta
            if hasattr(self, '_m_gnta'):
                pass
                self._m_gnta._fetch_instances()


        @property
        def gnta(self):
            """The animation (present only when ofs_gnta is not 0); its header fields are columns of mot_animations."""
            if hasattr(self, '_m_gnta'):
                return self._m_gnta

            if self.ofs_gnta != 0:
                pass
                _pos = self._io.pos()
                self._io.seek(self.ofs_gnta)
                self._debug['_m_gnta']['start'] = self._io.pos()
                self._m_gnta = Mot.Gnta(self.ofs_gnta, self._io, self, self._root)
                self._m_gnta._read()
                self._debug['_m_gnta']['end'] = self._io.pos()
                self._io.seek(_pos)

            return getattr(self, '_m_gnta', None)


    class Coord(KaitaiStruct):
        """One key's four components, 16-bit or f32. The stored bytes are read once
        as u2 or f4 (x_stored ..., not a table column); x_raw ... re-read the
        16-bit halves so that they are null (and have no bytes) for f32 tracks;
        x ... are floats. The half decoding uses sign, exponent and mantissa
        (value = (128 + mantissa) * 2^(exponent - 134)) with integer shifts up to
        1 << 134: exact in Python, not portable to targets with 64-bit integers.
        """
        SEQ_FIELDS = ["x_stored", "y_stored", "z_stored", "w_stored"]
        def __init__(self, len_component, ofs_coord, _io, _parent=None, _root=None):
            super(Mot.Coord, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.len_component = len_component
            self.ofs_coord = ofs_coord
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['x_stored']['start'] = self._io.pos()
            _on = self.len_component
            if _on == 2:
                pass
                self.x_stored = self._io.read_u2be()
            elif _on == 4:
                pass
                self.x_stored = self._io.read_f4be()
            self._debug['x_stored']['end'] = self._io.pos()
            self._debug['y_stored']['start'] = self._io.pos()
            _on = self.len_component
            if _on == 2:
                pass
                self.y_stored = self._io.read_u2be()
            elif _on == 4:
                pass
                self.y_stored = self._io.read_f4be()
            self._debug['y_stored']['end'] = self._io.pos()
            self._debug['z_stored']['start'] = self._io.pos()
            _on = self.len_component
            if _on == 2:
                pass
                self.z_stored = self._io.read_u2be()
            elif _on == 4:
                pass
                self.z_stored = self._io.read_f4be()
            self._debug['z_stored']['end'] = self._io.pos()
            self._debug['w_stored']['start'] = self._io.pos()
            _on = self.len_component
            if _on == 2:
                pass
                self.w_stored = self._io.read_u2be()
            elif _on == 4:
                pass
                self.w_stored = self._io.read_f4be()
            self._debug['w_stored']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            _on = self.len_component
            if _on == 2:
                pass
            elif _on == 4:
                pass
            _on = self.len_component
            if _on == 2:
                pass
            elif _on == 4:
                pass
            _on = self.len_component
            if _on == 2:
                pass
            elif _on == 4:
                pass
            _on = self.len_component
            if _on == 2:
                pass
            elif _on == 4:
                pass
            _ = self.w_raw
            if hasattr(self, '_m_w_raw'):
                pass

            _ = self.x_raw
            if hasattr(self, '_m_x_raw'):
                pass

            _ = self.y_raw
            if hasattr(self, '_m_y_raw'):
                pass

            _ = self.z_raw
            if hasattr(self, '_m_z_raw'):
                pass


        @property
        def w(self):
            """W (twist in degrees for ROTATE tracks) as a float; a 16-bit component is decoded as the f32 whose upper half it is (bits << 16)."""
            if hasattr(self, '_m_w'):
                return self._m_w

            self._m_w = ((-1.0 if self.w_raw >> 15 == 1 else 1.0) * ((1.0E+300 * 1.0E+300 if self.w_raw & 127 == 0 else 1.0E+300 * 1.0E+300 - 1.0E+300 * 1.0E+300) if self.w_raw >> 7 & 255 == 255 else (((self.w_raw & 127) * 1.0) / (1 << 133) if self.w_raw >> 7 & 255 == 0 else ((128 + (self.w_raw & 127) << (self.w_raw >> 7 & 255) - 134) * 1.0 if self.w_raw >> 7 & 255 >= 134 else ((128 + (self.w_raw & 127)) * 1.0) / (1 << 134 - (self.w_raw >> 7 & 255))))) if self.len_component == 2 else self.w_stored)
            return getattr(self, '_m_w', None)

        @property
        def w_raw(self):
            """The raw 16-bit W (upper half of an f32) of a 16-bit track, read at the component's position; null for f32 tracks."""
            if hasattr(self, '_m_w_raw'):
                return self._m_w_raw

            if self.len_component == 2:
                pass
                _pos = self._io.pos()
                self._io.seek(self.ofs_coord + 6)
                self._debug['_m_w_raw']['start'] = self._io.pos()
                self._m_w_raw = self._io.read_u2be()
                self._debug['_m_w_raw']['end'] = self._io.pos()
                self._io.seek(_pos)

            return getattr(self, '_m_w_raw', None)

        @property
        def x(self):
            """X as a float; a 16-bit component is decoded as the f32 whose upper half it is (bits << 16)."""
            if hasattr(self, '_m_x'):
                return self._m_x

            self._m_x = ((-1.0 if self.x_raw >> 15 == 1 else 1.0) * ((1.0E+300 * 1.0E+300 if self.x_raw & 127 == 0 else 1.0E+300 * 1.0E+300 - 1.0E+300 * 1.0E+300) if self.x_raw >> 7 & 255 == 255 else (((self.x_raw & 127) * 1.0) / (1 << 133) if self.x_raw >> 7 & 255 == 0 else ((128 + (self.x_raw & 127) << (self.x_raw >> 7 & 255) - 134) * 1.0 if self.x_raw >> 7 & 255 >= 134 else ((128 + (self.x_raw & 127)) * 1.0) / (1 << 134 - (self.x_raw >> 7 & 255))))) if self.len_component == 2 else self.x_stored)
            return getattr(self, '_m_x', None)

        @property
        def x_raw(self):
            """The raw 16-bit X (upper half of an f32) of a 16-bit track, read at the component's position; null for f32 tracks."""
            if hasattr(self, '_m_x_raw'):
                return self._m_x_raw

            if self.len_component == 2:
                pass
                _pos = self._io.pos()
                self._io.seek(self.ofs_coord + 0)
                self._debug['_m_x_raw']['start'] = self._io.pos()
                self._m_x_raw = self._io.read_u2be()
                self._debug['_m_x_raw']['end'] = self._io.pos()
                self._io.seek(_pos)

            return getattr(self, '_m_x_raw', None)

        @property
        def y(self):
            """Y as a float; a 16-bit component is decoded as the f32 whose upper half it is (bits << 16)."""
            if hasattr(self, '_m_y'):
                return self._m_y

            self._m_y = ((-1.0 if self.y_raw >> 15 == 1 else 1.0) * ((1.0E+300 * 1.0E+300 if self.y_raw & 127 == 0 else 1.0E+300 * 1.0E+300 - 1.0E+300 * 1.0E+300) if self.y_raw >> 7 & 255 == 255 else (((self.y_raw & 127) * 1.0) / (1 << 133) if self.y_raw >> 7 & 255 == 0 else ((128 + (self.y_raw & 127) << (self.y_raw >> 7 & 255) - 134) * 1.0 if self.y_raw >> 7 & 255 >= 134 else ((128 + (self.y_raw & 127)) * 1.0) / (1 << 134 - (self.y_raw >> 7 & 255))))) if self.len_component == 2 else self.y_stored)
            return getattr(self, '_m_y', None)

        @property
        def y_raw(self):
            """The raw 16-bit Y (upper half of an f32) of a 16-bit track, read at the component's position; null for f32 tracks."""
            if hasattr(self, '_m_y_raw'):
                return self._m_y_raw

            if self.len_component == 2:
                pass
                _pos = self._io.pos()
                self._io.seek(self.ofs_coord + 2)
                self._debug['_m_y_raw']['start'] = self._io.pos()
                self._m_y_raw = self._io.read_u2be()
                self._debug['_m_y_raw']['end'] = self._io.pos()
                self._io.seek(_pos)

            return getattr(self, '_m_y_raw', None)

        @property
        def z(self):
            """Z as a float; a 16-bit component is decoded as the f32 whose upper half it is (bits << 16)."""
            if hasattr(self, '_m_z'):
                return self._m_z

            self._m_z = ((-1.0 if self.z_raw >> 15 == 1 else 1.0) * ((1.0E+300 * 1.0E+300 if self.z_raw & 127 == 0 else 1.0E+300 * 1.0E+300 - 1.0E+300 * 1.0E+300) if self.z_raw >> 7 & 255 == 255 else (((self.z_raw & 127) * 1.0) / (1 << 133) if self.z_raw >> 7 & 255 == 0 else ((128 + (self.z_raw & 127) << (self.z_raw >> 7 & 255) - 134) * 1.0 if self.z_raw >> 7 & 255 >= 134 else ((128 + (self.z_raw & 127)) * 1.0) / (1 << 134 - (self.z_raw >> 7 & 255))))) if self.len_component == 2 else self.z_stored)
            return getattr(self, '_m_z', None)

        @property
        def z_raw(self):
            """The raw 16-bit Z (upper half of an f32) of a 16-bit track, read at the component's position; null for f32 tracks."""
            if hasattr(self, '_m_z_raw'):
                return self._m_z_raw

            if self.len_component == 2:
                pass
                _pos = self._io.pos()
                self._io.seek(self.ofs_coord + 4)
                self._debug['_m_z_raw']['start'] = self._io.pos()
                self._m_z_raw = self._io.read_u2be()
                self._debug['_m_z_raw']['end'] = self._io.pos()
                self._io.seek(_pos)

            return getattr(self, '_m_z_raw', None)


    class Gnta(KaitaiStruct):
        SEQ_FIELDS = ["num_tracks", "len_header", "play_speed", "end_time", "tracks"]
        def __init__(self, ofs_base, _io, _parent=None, _root=None):
            super(Mot.Gnta, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.ofs_base = ofs_base
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['num_tracks']['start'] = self._io.pos()
            self.num_tracks = self._io.read_u4be()
            self._debug['num_tracks']['end'] = self._io.pos()
            _ = self.num_tracks
            if not _ * 32 <= self._io.size() - self._io.pos():
                raise kaitaistruct.ValidationExprError(self.num_tracks, self._io, u"/types/gnta/seq/0")
            _animre_r = _animre_run(self._io, 12, _animre_run_1)
            if _animre_r is None:
                self._debug['len_header']['start'] = self._io.pos()
                self.len_header = self._io.read_u4be()
                self._debug['len_header']['end'] = self._io.pos()
                self._debug['play_speed']['start'] = self._io.pos()
                self.play_speed = self._io.read_f4be()
                self._debug['play_speed']['end'] = self._io.pos()
                self._debug['end_time']['start'] = self._io.pos()
                self.end_time = self._io.read_f4be()
                self._debug['end_time']['end'] = self._io.pos()
            else:
                _animre_p, (self.len_header, self.play_speed, self.end_time,) = _animre_r
                _animre_d = self._debug
                _animre_d['len_header'] = {'start': _animre_p + 0, 'end': _animre_p + 4}
                _animre_d['play_speed'] = {'start': _animre_p + 4, 'end': _animre_p + 8}
                _animre_d['end_time'] = {'start': _animre_p + 8, 'end': _animre_p + 12}
            self._debug['tracks']['start'] = self._io.pos()
            self._debug['tracks']['arr'] = []
            self.tracks = []
            for i in range(self.num_tracks):
                self._debug['tracks']['arr'].append({'start': self._io.pos()})
                if i & 4095 == 4095:
                    _animre_check(self._debug['tracks']['arr'], self._io)
                _t_tracks = Mot.Track(i, self._io, self, self._root)
                try:
                    _t_tracks._read()
                finally:
                    self.tracks.append(_t_tracks)
                self._debug['tracks']['arr'][i]['end'] = self._io.pos()

            self._debug['tracks']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            for i in range(len(self.tracks)):
                pass
                self.tracks[i]._fetch_instances()



    class Key(KaitaiStruct):
        SEQ_FIELDS = ["time"]
        def __init__(self, key_index, _io, _parent=None, _root=None):
            super(Mot.Key, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.key_index = key_index
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['time']['start'] = self._io.pos()
            self.time = self._io.read_f4be()
            self._debug['time']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            _ = self.coord
            if hasattr(self, '_m_coord'):
                pass
                self._m_coord._fetch_instances()


        @property
        def coord(self):
            """The key's coordinates (x, y, z, w), from the track's key coordinates (ofs_coords); absent when the track has none."""
            if hasattr(self, '_m_coord'):
                return self._m_coord

            if self._parent.has_coords:
                pass
                _pos = self._io.pos()
                self._io.seek(self.ofs_coord)
                self._debug['_m_coord']['start'] = self._io.pos()
                self._m_coord = Mot.Coord(self._parent.len_component, self.ofs_coord, self._io, self, self._root)
                self._m_coord._read()
                self._debug['_m_coord']['end'] = self._io.pos()
                self._io.seek(_pos)

            return getattr(self, '_m_coord', None)

        @property
        def ofs_coord(self):
            """Absolute offset of this key's coordinates."""
            if hasattr(self, '_m_ofs_coord'):
                return self._m_ofs_coord

            self._m_ofs_coord = (self._parent._parent.ofs_base + self._parent.ofs_coords) + (self.key_index * 4) * self._parent.len_component
            return getattr(self, '_m_ofs_coord', None)


    class Track(KaitaiStruct):
        SEQ_FIELDS = ["flags", "track_flags", "bone_id", "num_keys", "total_time", "unknown_0c", "ofs_times", "ofs_coords", "unknown_18", "unknown_1c"]
        def __init__(self, track_index, _io, _parent=None, _root=None):
            super(Mot.Track, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.track_index = track_index
            self._debug = collections.defaultdict(dict)

        def _read(self):
            _animre_r = _animre_run(self._io, 4, _animre_run_2)
            if _animre_r is None:
                self._debug['flags']['start'] = self._io.pos()
                self.flags = self._io.read_u2be()
                self._debug['flags']['end'] = self._io.pos()
                self._debug['track_flags']['start'] = self._io.pos()
                self.track_flags = self._io.read_u2be()
                self._debug['track_flags']['end'] = self._io.pos()
            else:
                _animre_p, (self.flags, self.track_flags,) = _animre_r
                _animre_d = self._debug
                _animre_d['flags'] = {'start': _animre_p + 0, 'end': _animre_p + 2}
                _animre_d['track_flags'] = {'start': _animre_p + 2, 'end': _animre_p + 4}
            self._debug['bone_id']['start'] = self._io.pos()
            self.bone_id = KaitaiStream.resolve_enum(Mot.Bone, self._io.read_u2be())
            self._debug['bone_id']['end'] = self._io.pos()
            self._debug['num_keys']['start'] = self._io.pos()
            self.num_keys = self._io.read_u2be()
            self._debug['num_keys']['end'] = self._io.pos()
            _ = self.num_keys
            if not _ * 4 <= self._io.size() - self._parent.ofs_base:
                raise kaitaistruct.ValidationExprError(self.num_keys, self._io, u"/types/track/seq/3")
            _animre_r = _animre_run(self._io, 12, _animre_run_3)
            if _animre_r is None:
                self._debug['total_time']['start'] = self._io.pos()
                self.total_time = self._io.read_f4be()
                self._debug['total_time']['end'] = self._io.pos()
                self._debug['unknown_0c']['start'] = self._io.pos()
                self.unknown_0c = self._io.read_u4be()
                self._debug['unknown_0c']['end'] = self._io.pos()
                self._debug['ofs_times']['start'] = self._io.pos()
                self.ofs_times = self._io.read_u4be()
                self._debug['ofs_times']['end'] = self._io.pos()
            else:
                _animre_p, (self.total_time, self.unknown_0c, self.ofs_times,) = _animre_r
                _animre_d = self._debug
                _animre_d['total_time'] = {'start': _animre_p + 0, 'end': _animre_p + 4}
                _animre_d['unknown_0c'] = {'start': _animre_p + 4, 'end': _animre_p + 8}
                _animre_d['ofs_times'] = {'start': _animre_p + 8, 'end': _animre_p + 12}
            _ = self.ofs_times
            if not (self._parent.ofs_base + _) + self.num_keys * 4 <= self._io.size():
                raise kaitaistruct.ValidationExprError(self.ofs_times, self._io, u"/types/track/seq/6")
            self._debug['ofs_coords']['start'] = self._io.pos()
            self.ofs_coords = self._io.read_u4be()
            self._debug['ofs_coords']['end'] = self._io.pos()
            _ = self.ofs_coords
            if not  ((_ == 0) or ((self._parent.ofs_base + _) + (self.num_keys * 4) * (self.flags & 255) <= self._io.size())) :
                raise kaitaistruct.ValidationExprError(self.ofs_coords, self._io, u"/types/track/seq/7")
            _animre_r = _animre_run(self._io, 8, _animre_run_4)
            if _animre_r is None:
                self._debug['unknown_18']['start'] = self._io.pos()
                self.unknown_18 = self._io.read_u4be()
                self._debug['unknown_18']['end'] = self._io.pos()
                self._debug['unknown_1c']['start'] = self._io.pos()
                self.unknown_1c = self._io.read_u4be()
                self._debug['unknown_1c']['end'] = self._io.pos()
            else:
                _animre_p, (self.unknown_18, self.unknown_1c,) = _animre_r
                _animre_d = self._debug
                _animre_d['unknown_18'] = {'start': _animre_p + 0, 'end': _animre_p + 4}
                _animre_d['unknown_1c'] = {'start': _animre_p + 4, 'end': _animre_p + 8}


        def _fetch_instances(self):
            pass
            _ = self.keys
            if hasattr(self, '_m_keys'):
                pass
                for i in range(len(self._m_keys)):
                    pass
                    self._m_keys[i]._fetch_instances()


            _ = self.pad_coords
            if hasattr(self, '_m_pad_coords'):
                pass

            _ = self.pad_times
            if hasattr(self, '_m_pad_times'):
                pass


        @property
        def has_coords(self):
            """The coordinates are read (non-zero offset and a known component size)."""
            if hasattr(self, '_m_has_coords'):
                return self._m_has_coords

            self._m_has_coords =  ((self.ofs_coords != 0) and ( ((self.len_component == 2) or (self.len_component == 4)) )) 
            return getattr(self, '_m_has_coords', None)

        @property
        def has_coords_flag(self):
            """Flag bit 0x0200, coordinates present."""
            if hasattr(self, '_m_has_coords_flag'):
                return self._m_has_coords_flag

            self._m_has_coords_flag = self.flags & 512 != 0
            return getattr(self, '_m_has_coords_flag', None)

        @property
        def is_disabled(self):
            """DISABLED bit."""
            if hasattr(self, '_m_is_disabled'):
                return self._m_is_disabled

            self._m_is_disabled = self.track_flags & 64 != 0
            return getattr(self, '_m_is_disabled', None)

        @property
        def is_enabled(self):
            """ENABLED bit."""
            if hasattr(self, '_m_is_enabled'):
                return self._m_is_enabled

            self._m_is_enabled = self.track_flags & 32 != 0
            return getattr(self, '_m_is_enabled', None)

        @property
        def is_rotate(self):
            """ROTATE bit (xyz = direction, w = twist in degrees)."""
            if hasattr(self, '_m_is_rotate'):
                return self._m_is_rotate

            self._m_is_rotate = self.track_flags & 8 != 0
            return getattr(self, '_m_is_rotate', None)

        @property
        def is_scale(self):
            """SCALE bit."""
            if hasattr(self, '_m_is_scale'):
                return self._m_is_scale

            self._m_is_scale = self.track_flags & 2 != 0
            return getattr(self, '_m_is_scale', None)

        @property
        def is_translate(self):
            """TRANSLATE bit."""
            if hasattr(self, '_m_is_translate'):
                return self._m_is_translate

            self._m_is_translate = self.track_flags & 1 != 0
            return getattr(self, '_m_is_translate', None)

        @property
        def keys(self):
            """The key frames (table mot_keys, keyed by key); each key's time is read here, its coordinates through ofs_coords."""
            if hasattr(self, '_m_keys'):
                return self._m_keys

            _pos = self._io.pos()
            self._io.seek(self._parent.ofs_base + self.ofs_times)
            self._debug['_m_keys']['start'] = self._io.pos()
            self._debug['_m_keys']['arr'] = []
            self._m_keys = []
            for i in range(self.num_keys):
                self._debug['_m_keys']['arr'].append({'start': self._io.pos()})
                if i & 4095 == 4095:
                    _animre_check(self._debug['_m_keys']['arr'], self._io)
                _t__m_keys = Mot.Key(i, self._io, self, self._root)
                try:
                    _t__m_keys._read()
                finally:
                    self._m_keys.append(_t__m_keys)
                self._debug['_m_keys']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_keys']['end'] = self._io.pos()
            self._io.seek(_pos)
            return getattr(self, '_m_keys', None)

        @property
        def kind(self):
            """The track's kind (translate, scale or rotate) from the low bits of track_flags."""
            if hasattr(self, '_m_kind'):
                return self._m_kind

            self._m_kind = KaitaiStream.resolve_enum(Mot.TrackFlag, self.track_flags & 15)
            return getattr(self, '_m_kind', None)

        @property
        def last_key_time(self):
            """Time of the last key (seconds); the notes' total time should equal it."""
            if hasattr(self, '_m_last_key_time'):
                return self._m_last_key_time

            if self.num_keys > 0:
                pass
                self._m_last_key_time = self.keys[-1].time

            return getattr(self, '_m_last_key_time', None)

        @property
        def len_component(self):
            """Size of one coordinate component in bytes (2 = raw upper half of an f32, 4 = f32)."""
            if hasattr(self, '_m_len_component'):
                return self._m_len_component

            self._m_len_component = self.flags & 255
            return getattr(self, '_m_len_component', None)

        @property
        def len_pad_coords(self):
            """Bytes from the end of the coordinates to the next 16-byte boundary (clamped to the file)."""
            if hasattr(self, '_m_len_pad_coords'):
                return self._m_len_pad_coords

            self._m_len_pad_coords = ((16 - self.ofs_coords_end % 16) % 16 if (16 - self.ofs_coords_end % 16) % 16 <= (self._io.size() - self._parent.ofs_base) - self.ofs_coords_end else (self._io.size() - self._parent.ofs_base) - self.ofs_coords_end)
            return getattr(self, '_m_len_pad_coords', None)

        @property
        def len_pad_times(self):
            """Bytes from the end of the key times to the next 16-byte boundary (clamped to the file)."""
            if hasattr(self, '_m_len_pad_times'):
                return self._m_len_pad_times

            self._m_len_pad_times = ((16 - self.ofs_times_end % 16) % 16 if (16 - self.ofs_times_end % 16) % 16 <= (self._io.size() - self._parent.ofs_base) - self.ofs_times_end else (self._io.size() - self._parent.ofs_base) - self.ofs_times_end)
            return getattr(self, '_m_len_pad_times', None)

        @property
        def ofs_coords_end(self):
            """End of the key coordinates, relative to the GNTA start."""
            if hasattr(self, '_m_ofs_coords_end'):
                return self._m_ofs_coords_end

            self._m_ofs_coords_end = self.ofs_coords + (self.num_keys * 4) * self.len_component
            return getattr(self, '_m_ofs_coords_end', None)

        @property
        def ofs_header(self):
            """Absolute offset of this track header (the GNTA's 16-byte header, then 0x20 bytes per track)."""
            if hasattr(self, '_m_ofs_header'):
                return self._m_ofs_header

            self._m_ofs_header = (self._parent.ofs_base + 16) + self.track_index * 32
            return getattr(self, '_m_ofs_header', None)

        @property
        def ofs_times_end(self):
            """End of the key times, relative to the GNTA start."""
            if hasattr(self, '_m_ofs_times_end'):
                return self._m_ofs_times_end

            self._m_ofs_times_end = self.ofs_times + self.num_keys * 4
            return getattr(self, '_m_ofs_times_end', None)

        @property
        def pad_coords(self):
            """Alignment padding after the coordinates (junk bytes in real files)."""
            if hasattr(self, '_m_pad_coords'):
                return self._m_pad_coords

            if self.has_coords:
                pass
                _pos = self._io.pos()
                self._io.seek(self._parent.ofs_base + self.ofs_coords_end)
                self._debug['_m_pad_coords']['start'] = self._io.pos()
                self._m_pad_coords = self._io.read_bytes(self.len_pad_coords)
                self._debug['_m_pad_coords']['end'] = self._io.pos()
                self._io.seek(_pos)

            return getattr(self, '_m_pad_coords', None)

        @property
        def pad_times(self):
            """Alignment padding after the key times (junk bytes in real files)."""
            if hasattr(self, '_m_pad_times'):
                return self._m_pad_times

            _pos = self._io.pos()
            self._io.seek(self._parent.ofs_base + self.ofs_times_end)
            self._debug['_m_pad_times']['start'] = self._io.pos()
            self._m_pad_times = self._io.read_bytes(self.len_pad_times)
            self._debug['_m_pad_times']['end'] = self._io.pos()
            self._io.seek(_pos)
            return getattr(self, '_m_pad_times', None)


    @property
    def len_pad_offsets(self):
        """Bytes from the end of the offset table to the next 16-byte boundary (clamped to the file)."""
        if hasattr(self, '_m_len_pad_offsets'):
            return self._m_len_pad_offsets

        self._m_len_pad_offsets = ((16 - self.ofs_offsets_end % 16) % 16 if (16 - self.ofs_offsets_end % 16) % 16 <= self._io.size() - self.ofs_offsets_end else self._io.size() - self.ofs_offsets_end)
        return getattr(self, '_m_len_pad_offsets', None)

    @property
    def ofs_offsets_end(self):
        """End of the offset table (absolute)."""
        if hasattr(self, '_m_ofs_offsets_end'):
            return self._m_ofs_offsets_end

        self._m_ofs_offsets_end = 16 + self.num_anim_ids * 4
        return getattr(self, '_m_ofs_offsets_end', None)

    @property
    def pad_offsets(self):
        """Alignment padding after the offset table (junk bytes in real files)."""
        if hasattr(self, '_m_pad_offsets'):
            return self._m_pad_offsets

        _pos = self._io.pos()
        self._io.seek(self.ofs_offsets_end)
        self._debug['_m_pad_offsets']['start'] = self._io.pos()
        self._m_pad_offsets = self._io.read_bytes(self.len_pad_offsets)
        self._debug['_m_pad_offsets']['end'] = self._io.pos()
        self._io.seek(_pos)
        return getattr(self, '_m_pad_offsets', None)

def _animre_check(arr, io):  # animre replaces this with its guard (animre/spec/guard.py)
    pass

def _animre_run(io, n, unpack):  # animre replaces this (animre/spec/streams.py)
    return None


import struct as _animre_struct  # noqa: E402
_animre_run_0 = _animre_struct.Struct('>II').unpack
_animre_run_1 = _animre_struct.Struct('>Iff').unpack
_animre_run_2 = _animre_struct.Struct('>HH').unpack
_animre_run_3 = _animre_struct.Struct('>fII').unpack
_animre_run_4 = _animre_struct.Struct('>II').unpack
