import type { Migration, MigrationProvider } from 'kysely';
import * as m0001 from './0001-images-folders.js';
import * as m0002 from './0002-tasks-results.js';
import * as m0003 from './0003-postgres-search-index.js';
import * as m0004 from './0004-image-counts.js';
import * as m0005 from './0005-task-engine-label.js';
import * as m0006 from './0006-result-specimens.js';
import * as m0007 from './0007-result-reviews.js';
import * as m0008 from './0008-nfc-names.js';
import * as m0009 from './0009-image-name-sort.js';
import * as m0010 from './0010-users-sessions.js';
import * as m0011 from './0011-image-metadata.js';
import * as m0012 from './0012-pending-uploads.js';
import * as m0013 from './0013-folder-name-sort.js';
import * as m0015 from './0015-images-folder-natural-sort.js';
import * as m0016 from './0016-image-labels.js';
import * as m0017 from './0017-lab-models.js';
import * as m0018 from './0018-task-refused-count.js';
import * as m0019 from './0019-storage-checks.js';

/**
 * Every migration, in order. Static imports (not a folder scan) so the build output and the tests
 * see exactly the same list. Add new ones at the end; never edit one that has shipped.
 */
const migrations: Record<string, Migration> = {
  '0001-images-folders': m0001,
  '0002-tasks-results': m0002,
  '0003-postgres-search-index': m0003,
  '0004-image-counts': m0004,
  '0005-task-engine-label': m0005,
  '0006-result-specimens': m0006,
  '0007-result-reviews': m0007,
  '0008-nfc-names': m0008,
  '0009-image-name-sort': m0009,
  '0010-users-sessions': m0010,
  '0011-image-metadata': m0011,
  '0012-pending-uploads': m0012,
  '0013-folder-name-sort': m0013,
  '0015-images-folder-natural-sort': m0015,
  '0016-image-labels': m0016,
  '0017-lab-models': m0017,
  '0018-task-refused-count': m0018,
  '0019-storage-checks': m0019,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
