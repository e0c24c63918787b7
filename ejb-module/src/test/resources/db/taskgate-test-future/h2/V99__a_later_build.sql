-- A version this build does not have, as a later build would have added it (SchemaMigratorTest).
CREATE TABLE taskgate_later (id INTEGER NOT NULL PRIMARY KEY);
