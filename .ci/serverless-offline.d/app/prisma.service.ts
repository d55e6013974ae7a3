// The template's src/prisma/prisma.service.ts, replaced for
// .ci/serverless-offline: Prisma's query engine is a binary fetched from
// Prisma's own server at install, which CI cannot reach, so the
// generated client (`prisma generate --no-engine`) can build but not
// query. This stand-in keeps the RDS read model the template's
// MasterDataSyncRdsHandler writes (the `sync_data` state, after the data
// table is written) in memory, with the three calls the template makes.
// Nothing on the path from the API to the data table uses it.
import { Inject, Injectable, Optional } from '@nestjs/common'

import { PrismaServiceOptions } from './interfaces'
import { PRISMA_SERVICE_OPTIONS } from './prisma.constants'

type Row = Record<string, any>

class Model {
  readonly rows = new Map<string, Row>()

  async upsert(args: { where: { id: string }; update: Row; create: Row }) {
    const row = this.rows.get(args.where.id)
    const next = row ? { ...row, ...args.update } : { ...args.create }
    this.rows.set(args.where.id, next)
    return next
  }

  private matching(where: Row = {}) {
    return [...this.rows.values()].filter((r) =>
      Object.entries(where).every(([k, v]) =>
        v && typeof v === 'object' && 'contains' in v ? String(r[k]).includes(v.contains) : r[k] === v,
      ),
    )
  }

  async count(args: { where?: Row } = {}) {
    return this.matching(args.where).length
  }

  async findMany(args: { where?: Row; take?: number; skip?: number; orderBy?: unknown } = {}) {
    const rows = this.matching(args.where)
    return rows.slice(args.skip ?? 0, (args.skip ?? 0) + (args.take ?? rows.length))
  }
}

@Injectable()
export class PrismaService {
  readonly master = new Model()

  constructor(
    @Optional()
    @Inject(PRISMA_SERVICE_OPTIONS)
    private readonly prismaServiceOptions: PrismaServiceOptions = {},
  ) {}
}
