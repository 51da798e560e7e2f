import neo4j, { type Driver } from 'neo4j-driver';
import { neo4jDriver } from '../../lib/graph/stores/neo4j.ts';

/**
 * The Neo4j the suites that need one talk to (`npm run test:neo4j` starts it and sets NEO4J_URI), emptied: a driver
 * and the database to name in each call.
 */
export async function emptyTestNeo4j(uri: string): Promise<{ driver: Driver; database: string | undefined }> {
  const driver = neo4jDriver({ uri, user: process.env.NEO4J_USER ?? 'neo4j', password: process.env.NEO4J_PASSWORD ?? '' });
  const database = process.env.NEO4J_DATABASE;
  await driver.executeQuery('MATCH (n) DETACH DELETE n', {}, { database, routing: neo4j.routing.WRITE });
  return { driver, database };
}
