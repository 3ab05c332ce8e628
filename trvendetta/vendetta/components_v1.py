"""Vendetta's components as they were when games began to record their own.

Games recorded before their first event carried their components fold with
these, whatever the data files say today: this is the upcast of an old
``GameStarted``.  Frozen as code, not read from a file, so folding reads no
file; never edit it (a new data set is recorded in the games that use it).
Generated from ``trvendetta/data/vendetta/`` at a83795a (the data of 262c54d
plus the Final Five's crew and die, which games of that time could use) with
``msgspec.json.encode(components.load())``; the vehicle kinds are the sizes
that version hard-coded (small S, medium M, large L, motorcycle S, one
section each).
"""

import msgspec

from .components import Components

_JSON = (
    '{"sides":{"the-parking-lot":{"name":"the-parking-lot","tile":0,"start":true,"terrain":[["offroad'
    '","road","road","road","road","offroad"],["offroad","road","road","road","road","offroad"],["off'
    'road","road","road","road","road","offroad"],["offroad","road","road","road","road","offroad"],['
    '"offroad","road","road","road","road","impassable"],["impassable","road","road","road","road","o'
    'ffroad"],["offroad","road","road","road","road","offroad"],["offroad","road","road","road","road'
    '","offroad"]],"hazards":[[1,3,2],[2,6,4],[3,2,3],[4,5,3]]},"the-road-to-perdition":{"name":"the-'
    'road-to-perdition","tile":0,"start":true,"terrain":[["offroad","road","road","road","road","offr'
    'oad"],["offroad","road","road","road","road","offroad"],["offroad","road","road","road","road","'
    'offroad"],["impassable","road","road","road","road","offroad"],["offroad","road","road","road","'
    'road","offroad"],["offroad","road","road","road","road","impassable"],["offroad","road","road","'
    'road","road","offroad"],["impassable","road","road","road","road","offroad"]],"hazards":[[1,5,2]'
    ',[2,2,2],[3,6,4],[4,3,3]]},"choke":{"name":"choke","tile":1,"start":false,"terrain":[["offroad",'
    '"offroad","road","road","offroad","offroad"],["offroad","offroad","road","road","offroad","offro'
    'ad"],["offroad","offroad","road","road","offroad","offroad"],["impassable","offroad","road","roa'
    'd","offroad","impassable"],["impassable","impassable","road","road","impassable","impassable"],['
    '"impassable","impassable","road","road","impassable","impassable"],["impassable","offroad","road'
    '","road","offroad","impassable"],["offroad","offroad","road","road","offroad","offroad"]],"hazar'
    'ds":[[1,1,0],[2,6,0],[3,3,0]]},"mudhole":{"name":"mudhole","tile":2,"start":false,"terrain":[["o'
    'ffroad","road","road","road","road","offroad"],["offroad","road","road","road","offroad","offroa'
    'd"],["impassable","road","road","road","mud","offroad"],["offroad","road","road","mud","mud","of'
    'froad"],["offroad","mud","mud","mud","mud","mud"],["mud","mud","mud","mud","mud","offroad"],["of'
    'froad","mud","mud","road","road","offroad"],["offroad","road","road","road","road","offroad"]],"'
    'hazards":[[2,3,0],[3,6,0],[4,1,0]]},"scenic-route":{"name":"scenic-route","tile":2,"start":false'
    ',"terrain":[["offroad","road","road","road","road","offroad"],["offroad","offroad","road","road"'
    ',"road","offroad"],["offroad","offroad","road","road","road","offroad"],["impassable","offroad",'
    '"road","road","road","offroad"],["offroad","offroad","road","road","road","offroad"],["offroad",'
    '"road","road","road","road","offroad"],["offroad","road","road","road","offroad","impassable"],['
    '"offroad","road","road","road","offroad","offroad"]],"hazards":[[0,6,0],[1,1,0],[3,5,0],[4,3,0]]'
    '},"barrens":{"name":"barrens","tile":1,"start":false,"terrain":[["offroad","offroad","road","roa'
    'd","offroad","offroad"],["impassable","offroad","road","road","offroad","offroad"],["offroad","o'
    'ffroad","road","road","offroad","offroad"],["offroad","offroad","road","road","offroad","impassa'
    'ble"],["impassable","offroad","road","road","offroad","offroad"],["offroad","offroad","road","ro'
    'ad","offroad","offroad"],["offroad","offroad","road","road","offroad","offroad"],["offroad","off'
    'road","road","road","offroad","offroad"]],"hazards":[[1,2,0],[1,6,0],[2,5,0],[3,2,0],[4,3,0],[5,'
    '6,0]]},"snakeway":{"name":"snakeway","tile":3,"start":false,"terrain":[["offroad","offroad","roa'
    'd","road","offroad","offroad"],["offroad","offroad","road","road","road","offroad"],["impassable'
    '","offroad","road","road","offroad","offroad"],["offroad","road","road","offroad","offroad","off'
    'road"],["road","road","offroad","offroad","offroad","offroad"],["road","road","offroad","offroad'
    '","offroad","impassable"],["offroad","road","road","road","offroad","offroad"],["offroad","offro'
    'ad","road","road","offroad","offroad"]],"hazards":[[1,4,0],[3,1,0],[3,6,0],[4,2,0]]},"dead-mans-'
    'curve":{"name":"dead-mans-curve","tile":3,"start":false,"terrain":[["offroad","offroad","road","'
    'road","offroad","offroad"],["offroad","offroad","road","road","road","impassable"],["offroad","o'
    'ffroad","offroad","road","road","offroad"],["impassable","offroad","offroad","road","road","offr'
    'oad"],["impassable","offroad","road","road","road","offroad"],["offroad","offroad","road","road"'
    ',"impassable","offroad"],["offroad","road","road","offroad","impassable","offroad"],["offroad","'
    'road","road","offroad","offroad","offroad"]],"hazards":[[1,1,0],[2,6,0],[4,3,0]]},"the-gauntlet"'
    ':{"name":"the-gauntlet","tile":4,"start":false,"terrain":[["offroad","offroad","road","road","of'
    'froad","offroad"],["offroad","offroad","road","road","offroad","offroad"],["offroad","impassable'
    '","road","road","impassable","offroad"],["offroad","offroad","road","road","offroad","offroad"],'
    '["offroad","impassable","road","road","impassable","offroad"],["offroad","offroad","road","road"'
    ',"offroad","offroad"],["impassable","offroad","road","road","offroad","impassable"],["impassable'
    '","offroad","road","road","offroad","impassable"]],"hazards":[[1,6,0],[2,3,0],[3,1,0],[3,5,0],[4'
    ',6,0]]},"rust-flats":{"name":"rust-flats","tile":4,"start":false,"terrain":[["offroad","mud","ro'
    'ad","road","mud","offroad"],["offroad","offroad","road","road","offroad","offroad"],["offroad","'
    'offroad","road","road","offroad","mud"],["offroad","offroad","road","road","mud","mud"],["offroa'
    'd","mud","road","road","mud","offroad"],["mud","mud","road","road","offroad","offroad"],["mud","'
    'offroad","road","road","offroad","offroad"],["offroad","offroad","road","road","offroad","offroa'
    'd"]],"hazards":[[1,3,0],[2,5,0],[3,2,0],[4,6,0]]}},"dice":{"movement":{"name":"movement","faces"'
    ':["1","2","3","4","5","6"]},"road":{"name":"road","faces":["1","1","2","2","3","3"]},"shot":{"na'
    'me":"shot","faces":["SM","M","L","L","L","SML"]},"slam":{"name":"slam","faces":["TOP","TOP","BOT'
    'TOM","BOTTOM","BOTTOM","BOTTOM"]},"direction":{"name":"direction","faces":["FL","F","FR","BL","B'
    '","BR"]},"stunt":{"name":"stunt","faces":["1","2","2","3","3","4"]},"motorcycle":{"name":"motorc'
    'ycle","faces":["1","2","3","4","5","6"]}},"hazards":{"road":8,"mud":6,"oil-slick":6,"mine":3,"wr'
    'eckage":3},"damage":{"dent":8,"skid-FL":1,"skid-FR":1,"skid-BL":1,"skid-BR":1,"shrapnel":3,"daze'
    'd":3,"blast-off":2},"crews":{"cars":{"name":"cars","vehicles":["small","medium","large"],"dice":'
    '4,"die":"movement","kind":null,"size":null,"slots":2,"coast":2},"finalfive":{"name":"finalfive",'
    '"vehicles":["bike1","bike2","bike3","bike4","bike5"],"dice":6,"die":"motorcycle","kind":"motorcy'
    'cle","size":"small","slots":1,"coast":4}},"vehicles":{"small":{"name":"small","size":"S","sectio'
    'ns":1},"medium":{"name":"medium","size":"M","sections":1},"large":{"name":"large","size":"L","se'
    'ctions":1},"motorcycle":{"name":"motorcycle","size":"S","sections":1}},"lanes":6,"rows":8}'
)

_V1: list[Components] = []


def v1() -> Components:
    """The components of every game recorded before its first event carried
    them: the data files as they were then, frozen as code (decoded on first
    use: a game that records its own never needs them)."""
    if not _V1:
        _V1.append(msgspec.json.decode(_JSON, type=Components))
    return _V1[0]
