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
    0x4048 -> 3.125); it is kept raw (u2) here and decoded in Python
    (animre.decode.gnt4.half_to_float). The 16-byte alignment padding after the
    offset table and after every key array is kept as bytes: in real files it is
    non-zero junk. Every count and offset is checked against the file size
    before anything is looped over or allocated.
    
    .. seealso::
       seeds/002_964d7e002e7b5b15.txt (MOT Files, GNTA Files, MOT Header, GNTA Header, Bone Animation Header)
    
    
    .. seealso::
       formats/NOTES.md section 3
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
        self._debug['unknown_0']['start'] = self._io.pos()
        self.unknown_0 = self._io.read_u4be()
        self._debug['unknown_0']['end'] = self._io.pos()
        self._debug['num_anim_ids']['start'] = self._io.pos()
        self.num_anim_ids = self._io.read_u4be()
        self._debug['num_anim_ids']['end'] = self._io.pos()
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
            """The animation (present only when ofs_gnta is not 0)."""
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


    class CoordF4(KaitaiStruct):
        SEQ_FIELDS = ["x", "y", "z", "w"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Mot.CoordF4, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['x']['start'] = self._io.pos()
            self.x = self._io.read_f4be()
            self._debug['x']['end'] = self._io.pos()
            self._debug['y']['start'] = self._io.pos()
            self.y = self._io.read_f4be()
            self._debug['y']['end'] = self._io.pos()
            self._debug['z']['start'] = self._io.pos()
            self.z = self._io.read_f4be()
            self._debug['z']['end'] = self._io.pos()
            self._debug['w']['start'] = self._io.pos()
            self.w = self._io.read_f4be()
            self._debug['w']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass


    class CoordU2(KaitaiStruct):
        SEQ_FIELDS = ["x", "y", "z", "w"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Mot.CoordU2, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['x']['start'] = self._io.pos()
            self.x = self._io.read_u2be()
            self._debug['x']['end'] = self._io.pos()
            self._debug['y']['start'] = self._io.pos()
            self.y = self._io.read_u2be()
            self._debug['y']['end'] = self._io.pos()
            self._debug['z']['start'] = self._io.pos()
            self.z = self._io.read_u2be()
            self._debug['z']['end'] = self._io.pos()
            self._debug['w']['start'] = self._io.pos()
            self.w = self._io.read_u2be()
            self._debug['w']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass


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
            self._debug['len_header']['start'] = self._io.pos()
            self.len_header = self._io.read_u4be()
            self._debug['len_header']['end'] = self._io.pos()
            self._debug['play_speed']['start'] = self._io.pos()
            self.play_speed = self._io.read_f4be()
            self._debug['play_speed']['end'] = self._io.pos()
            self._debug['end_time']['start'] = self._io.pos()
            self.end_time = self._io.read_f4be()
            self._debug['end_time']['end'] = self._io.pos()
            self._debug['tracks']['start'] = self._io.pos()
            self._debug['tracks']['arr'] = []
            self.tracks = []
            for i in range(self.num_tracks):
                self._debug['tracks']['arr'].append({'start': self._io.pos()})
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



    class Track(KaitaiStruct):
        SEQ_FIELDS = ["flags", "track_flags", "bone_id", "num_keys", "total_time", "unknown_0c", "ofs_times", "ofs_coords", "unknown_18", "unknown_1c"]
        def __init__(self, track_index, _io, _parent=None, _root=None):
            super(Mot.Track, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.track_index = track_index
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['flags']['start'] = self._io.pos()
            self.flags = self._io.read_u2be()
            self._debug['flags']['end'] = self._io.pos()
            self._debug['track_flags']['start'] = self._io.pos()
            self.track_flags = self._io.read_u2be()
            self._debug['track_flags']['end'] = self._io.pos()
            self._debug['bone_id']['start'] = self._io.pos()
            self.bone_id = self._io.read_u2be()
            self._debug['bone_id']['end'] = self._io.pos()
            self._debug['num_keys']['start'] = self._io.pos()
            self.num_keys = self._io.read_u2be()
            self._debug['num_keys']['end'] = self._io.pos()
            _ = self.num_keys
            if not _ * 4 <= self._io.size() - self._parent.ofs_base:
                raise kaitaistruct.ValidationExprError(self.num_keys, self._io, u"/types/track/seq/3")
            self._debug['total_time']['start'] = self._io.pos()
            self.total_time = self._io.read_f4be()
            self._debug['total_time']['end'] = self._io.pos()
            self._debug['unknown_0c']['start'] = self._io.pos()
            self.unknown_0c = self._io.read_u4be()
            self._debug['unknown_0c']['end'] = self._io.pos()
            self._debug['ofs_times']['start'] = self._io.pos()
            self.ofs_times = self._io.read_u4be()
            self._debug['ofs_times']['end'] = self._io.pos()
            _ = self.ofs_times
            if not (self._parent.ofs_base + _) + self.num_keys * 4 <= self._io.size():
                raise kaitaistruct.ValidationExprError(self.ofs_times, self._io, u"/types/track/seq/6")
            self._debug['ofs_coords']['start'] = self._io.pos()
            self.ofs_coords = self._io.read_u4be()
            self._debug['ofs_coords']['end'] = self._io.pos()
            _ = self.ofs_coords
            if not  ((_ == 0) or ((self._parent.ofs_base + _) + (self.num_keys * 4) * (self.flags & 255) <= self._io.size())) :
                raise kaitaistruct.ValidationExprError(self.ofs_coords, self._io, u"/types/track/seq/7")
            self._debug['unknown_18']['start'] = self._io.pos()
            self.unknown_18 = self._io.read_u4be()
            self._debug['unknown_18']['end'] = self._io.pos()
            self._debug['unknown_1c']['start'] = self._io.pos()
            self.unknown_1c = self._io.read_u4be()
            self._debug['unknown_1c']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            _ = self.coords
            if hasattr(self, '_m_coords'):
                pass
                for i in range(len(self._m_coords)):
                    pass
                    _on = self.len_component
                    if _on == 2:
                        pass
                        self._m_coords[i]._fetch_instances()
                    elif _on == 4:
                        pass
                        self._m_coords[i]._fetch_instances()


            _ = self.pad_coords
            if hasattr(self, '_m_pad_coords'):
                pass

            _ = self.pad_times
            if hasattr(self, '_m_pad_times'):
                pass

            _ = self.times
            if hasattr(self, '_m_times'):
                pass
                for i in range(len(self._m_times)):
                    pass



        @property
        def bone(self):
            """Bone name where the note knows it."""
            if hasattr(self, '_m_bone'):
                return self._m_bone

            self._m_bone = KaitaiStream.resolve_enum(Mot.Bone, self.bone_id)
            return getattr(self, '_m_bone', None)

        @property
        def coords(self):
            """Key coordinates, one x, y, z, w set per key."""
            if hasattr(self, '_m_coords'):
                return self._m_coords

            if self.has_coords:
                pass
                _pos = self._io.pos()
                self._io.seek(self._parent.ofs_base + self.ofs_coords)
                self._debug['_m_coords']['start'] = self._io.pos()
                self._debug['_m_coords']['arr'] = []
                self._m_coords = []
                for i in range(self.num_keys):
                    self._debug['_m_coords']['arr'].append({'start': self._io.pos()})
                    _on = self.len_component
                    if _on == 2:
                        pass
                        _t__m_coords = Mot.CoordU2(self._io, self, self._root)
                        try:
                            _t__m_coords._read()
                        finally:
                            self._m_coords.append(_t__m_coords)
                    elif _on == 4:
                        pass
                        _t__m_coords = Mot.CoordF4(self._io, self, self._root)
                        try:
                            _t__m_coords._read()
                        finally:
                            self._m_coords.append(_t__m_coords)
                    self._debug['_m_coords']['arr'][i]['end'] = self._io.pos()

                self._debug['_m_coords']['end'] = self._io.pos()
                self._io.seek(_pos)

            return getattr(self, '_m_coords', None)

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
        def kind(self):
            """The track's kind (translate, scale or rotate) from the low bits of track_flags."""
            if hasattr(self, '_m_kind'):
                return self._m_kind

            self._m_kind = KaitaiStream.resolve_enum(Mot.TrackFlag, self.track_flags & 15)
            return getattr(self, '_m_kind', None)

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
        def times(self):
            """Key times in seconds (frame / 60)."""
            if hasattr(self, '_m_times'):
                return self._m_times

            _pos = self._io.pos()
            self._io.seek(self._parent.ofs_base + self.ofs_times)
            self._debug['_m_times']['start'] = self._io.pos()
            self._debug['_m_times']['arr'] = []
            self._m_times = []
            for i in range(self.num_keys):
                self._debug['_m_times']['arr'].append({'start': self._io.pos()})
                self._m_times.append(self._io.read_f4be())
                self._debug['_m_times']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_times']['end'] = self._io.pos()
            self._io.seek(_pos)
            return getattr(self, '_m_times', None)


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


