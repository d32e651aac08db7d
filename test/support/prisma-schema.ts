/** A small reader of schema.prisma's models for the drift test: scalar fields, optionality, @unique. */
export interface PrismaModel {
  name: string;
  fields: { name: string; type: string; optional: boolean }[];
  uniqueFields: string[];
}

const SCALARS = new Set(['Int', 'String', 'DateTime', 'Float', 'Boolean', 'BigInt', 'Decimal', 'Bytes', 'Json']);

export function parsePrismaModels(schema: string): PrismaModel[] {
  const models: PrismaModel[] = [];
  for (const match of schema.matchAll(/^model\s+(\w+)\s*\{([\s\S]*?)^\}/gm)) {
    const model: PrismaModel = { name: match[1]!, fields: [], uniqueFields: [] };
    for (const raw of match[2]!.split('\n')) {
      const line = raw.replace(/\/\/.*$/, '').trim();
      if (!line) continue;
      const compound = /^@@unique\(\[([^\]]+)\]/.exec(line);
      if (compound) model.uniqueFields.push(compound[1]!.split(',').map((s) => s.trim()).join(','));
      const field = /^(\w+)\s+(\w+)(\[\])?(\?)?(.*)$/.exec(line);
      if (!field || line.startsWith('@@') || field[3] || !SCALARS.has(field[2]!)) continue;
      model.fields.push({ name: field[1]!, type: field[2]!, optional: Boolean(field[4]) });
      if (/@unique\b/.test(field[5]!)) model.uniqueFields.push(field[1]!);
    }
    models.push(model);
  }
  return models;
}
