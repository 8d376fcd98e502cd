import { describe, expect, it } from 'vitest'
import { stationsOutside } from './stations-outside.ts'
import type { ObjectNode } from './api.ts'

const node = (id: number, stations: number[], children: ObjectNode[] = []): ObjectNode => ({
  id, parent_object_id: null, description: `Node ${id}`, object_type: 'building', children,
  electrical_meters: [], heating_meters: [], water_meters: [], charging_stations: stations.map((s) => ({ id: s, name: `Station ${s}` })),
})
const group = (id: number, stations: number[]) => ({ id, description: `Node ${id}`, charging_stations: stations.map((s) => ({ id: s, name: `Station ${s}` })) })

describe('the charging stations the installation view lists beside the object tree', () => {
  it("are all of a resident's stations when no object is shared with them (rights on the stations only)", () => {
    expect(stationsOutside([], [group(7, [1, 2])])).toEqual([group(7, [1, 2])])
  })
  it('leave out stations the readable tree shows, at any depth, and groups left empty', () => {
    const tree = [node(1, [], [node(7, [1])])]
    expect(stationsOutside(tree, [group(7, [1, 2]), group(8, [1])])).toEqual([group(7, [2])])
  })
  it('are none when the tree shows every readable station', () => {
    expect(stationsOutside([node(7, [1, 2])], [group(7, [1, 2])])).toEqual([])
  })
})
