// A large OpenAPI 3 document of our own (a made-up warehouse API: 20
// resources, 11 operations each, 220 in all, with path and query parameters,
// enums and JSON request bodies) for the swagger-ui-dist test, and the answer
// of the fixture server's /api/ routes that its "Try it out" reaches: the
// request echoed back, so the response the page shows is ours and names what
// was filled in (and who signed in, from HTTP Basic auth: the user, never the
// password).

/** The resources of the made-up API, one tag each. */
export const API_RESOURCES = Object.freeze([
  'orders', 'customers', 'products', 'invoices', 'shipments', 'suppliers', 'warehouses', 'carriers', 'returns', 'payments',
  'coupons', 'reviews', 'categories', 'employees', 'locations', 'pallets', 'batches', 'audits', 'contracts', 'tickets',
]);

/** Every status a resource's list can be filtered by (an enum: swagger-ui shows a <select>). */
export const API_STATUSES = Object.freeze(['draft', 'open', 'shipped', 'closed']);

const singular = (name) => (name.endsWith('ies') ? `${name.slice(0, -3)}y` : name.replace(/s$/, ''));
const title = (name) => name[0].toUpperCase() + name.slice(1);

function schemaOf(res) {
  return {
    type: 'object',
    required: ['name'],
    properties: {
      name: { type: 'string', example: `First ${singular(res)}` },
      status: { type: 'string', enum: API_STATUSES, example: 'draft' },
      quantity: { type: 'integer', minimum: 0, example: 1 },
      note: { type: 'string', example: '' },
    },
  };
}

/** The OpenAPI 3.0 document: 220 operations under 20 tags. */
export function openApiDocument() {
  const paths = {};
  const schemas = {};
  const idParam = (res) => ({
    name: 'id', in: 'path', required: true, description: `Number of the ${singular(res)}`, schema: { type: 'integer', minimum: 1 },
  });
  const query = (name, description, schema, required = false) => ({ name, in: 'query', required, description, schema });
  const body = (res) => ({
    required: true,
    content: { 'application/json': { schema: { $ref: `#/components/schemas/${title(singular(res))}` } } },
  });
  const ok = (description) => ({ 200: { description, content: { 'application/json': { schema: { type: 'object' } } } } });

  for (const res of API_RESOURCES) {
    const one = singular(res);
    const Name = title(one);
    schemas[Name] = schemaOf(res);
    const base = `/api/${res}`;
    const item = `${base}/{id}`;
    paths[base] = {
      get: {
        tags: [res], operationId: `list${title(res)}`, summary: `List ${res}`,
        parameters: [
          query('status', `Only ${res} in this status`, { type: 'string', enum: API_STATUSES }),
          query('limit', 'At most this many', { type: 'integer', default: 20, minimum: 1, maximum: 100 }),
          query('offset', 'Skip this many', { type: 'integer', default: 0, minimum: 0 }),
          query('sort', 'Sort key', { type: 'string', enum: ['name', 'created', 'updated'] }),
        ],
        responses: ok(`A page of ${res}`),
      },
      post: { tags: [res], operationId: `create${Name}`, summary: `Create a ${one}`, requestBody: body(res), responses: ok(`The new ${one}`) },
    };
    paths[`${base}/search`] = {
      get: {
        tags: [res], operationId: `search${title(res)}`, summary: `Search ${res} by words`,
        parameters: [query('q', 'Words to look for', { type: 'string' }, true), query('limit', 'At most this many', { type: 'integer', default: 10 })],
        responses: ok('What matched'),
      },
    };
    paths[`${base}/count`] = {
      get: { tags: [res], operationId: `count${title(res)}`, summary: `Count ${res}`, parameters: [query('status', 'Count only this status', { type: 'string', enum: API_STATUSES })], responses: ok('How many') },
    };
    paths[`${base}/export`] = {
      get: {
        tags: [res], operationId: `export${title(res)}`, summary: `Export ${res}`,
        parameters: [query('format', 'File format', { type: 'string', enum: ['csv', 'json', 'xlsx'] }, true)],
        responses: ok('The export'),
      },
    };
    paths[item] = {
      get: { tags: [res], operationId: `get${Name}`, summary: `Get one ${one}`, parameters: [idParam(res)], responses: ok(`The ${one}`) },
      put: { tags: [res], operationId: `replace${Name}`, summary: `Replace a ${one}`, parameters: [idParam(res)], requestBody: body(res), responses: ok(`The ${one}`) },
      patch: {
        tags: [res], operationId: `update${Name}`, summary: `Change some fields of a ${one}`,
        parameters: [idParam(res), query('notify', `Tell the ${one}'s watchers`, { type: 'boolean' })],
        requestBody: body(res), responses: ok(`The ${one}`),
      },
      delete: { tags: [res], operationId: `delete${Name}`, summary: `Delete a ${one}`, parameters: [idParam(res)], responses: ok('Deleted') },
    };
    paths[`${item}/notes`] = {
      get: {
        tags: [res], operationId: `list${Name}Notes`, summary: `Notes on a ${one}`,
        parameters: [idParam(res), query('author', 'Only notes by this author', { type: 'string' })],
        responses: ok('The notes'),
      },
      post: {
        tags: [res], operationId: `add${Name}Note`, summary: `Add a note to a ${one}`, parameters: [idParam(res)],
        requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', properties: { text: { type: 'string', example: 'Checked' } } } } } },
        responses: ok('The note'),
      },
    };
  }
  return {
    openapi: '3.0.3',
    info: { title: 'Warehouse API (tabbridge fixture)', version: '1.0.0', description: 'A made-up API for the e2e suite: every operation echoes its request.' },
    servers: [{ url: '/' }],
    tags: API_RESOURCES.map((res) => ({ name: res, description: `Everything about ${res}` })),
    paths,
    // Every operation may be called signed in: swagger-ui's Authorize dialog is a <form> with named fields.
    security: [{ basicAuth: [] }],
    components: { schemas, securitySchemes: { basicAuth: { type: 'http', scheme: 'basic' } } },
  };
}

/** How many operations openApiDocument() has. */
export const API_OPERATION_COUNT = API_RESOURCES.length * 11;

/**
 * The body the fixture server answers to any request under /api/: what it
 * was sent (method, path, query, JSON body parsed when it is JSON), under a
 * mark that says where it came from.
 */
export function apiEcho({ method, pathname, query, body, authorization }) {
  let json = body;
  try {
    json = body ? JSON.parse(body) : null;
  } catch {
    /* not JSON: echoed as text */
  }
  return { echoedBy: 'tabbridge-fixture-api', method, path: pathname, query, body: json, user: basicAuthUser(authorization) };
}

/** The user name of an HTTP Basic Authorization header (never its password), or null. */
function basicAuthUser(authorization) {
  const m = /^Basic\s+(\S+)$/i.exec(authorization ?? '');
  if (!m) return null;
  const pair = Buffer.from(m[1], 'base64').toString('utf8');
  return pair.includes(':') ? pair.slice(0, pair.indexOf(':')) : null;
}
