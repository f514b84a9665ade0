// ajv: JSON.parse and validate against lore's own schema (draft 2020-12).
const path = require('path'), fs = require('fs');
const dir = process.argv[2], schemaDir = process.argv[3], file = process.argv[4];
const Ajv = require(path.join(dir, 'node_modules/ajv/dist/2020')).default;
const ajv = new Ajv({ allErrors: true, strict: false });
for (const n of ['entry', 'lorebook']) {
  ajv.addSchema(JSON.parse(fs.readFileSync(path.join(schemaDir, n + '.schema.json'), 'utf8')), 'file:///lore/schema/' + n + '.schema.json');
}
const validate = ajv.getSchema('file:///lore/schema/lorebook.schema.json');
if (!validate(JSON.parse(fs.readFileSync(file, 'utf8')))) { console.log(JSON.stringify(validate.errors.slice(0, 3))); process.exit(1); }
