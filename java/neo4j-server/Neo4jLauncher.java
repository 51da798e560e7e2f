import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.connectors.HttpConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;

/**
 * A throw-away Neo4j Community server for development and tests: the embedded database with its Bolt connector on
 * a loopback port, a store in a temporary folder (or the folder given), no authentication. Prints
 * `READY bolt://127.0.0.1:<port>` once it accepts connections, and shuts down cleanly (then deletes a temporary
 * store) on SIGTERM, SIGINT, or when its standard input closes, so it never outlives the process that started it.
 *
 * Usage: java -cp <classpath from pom.xml> Neo4jLauncher.java <port> [store folder]
 */
public class Neo4jLauncher {
  public static void main(String[] args) throws Exception {
    int port = args.length > 0 ? Integer.parseInt(args[0]) : 7687;
    boolean temporary = args.length < 2;
    Path store = temporary ? Files.createTempDirectory("assay-neo4j-") : Path.of(args[1]);
    DatabaseManagementService service = new DatabaseManagementServiceBuilder(store)
        .setConfig(BoltConnector.enabled, true)
        .setConfig(BoltConnector.listen_address, new SocketAddress("127.0.0.1", port))
        .setConfig(HttpConnector.enabled, false)
        .setConfig(GraphDatabaseSettings.auth_enabled, false)
        .build();
    Thread stopper = new Thread(() -> {
      service.shutdown();
      if (temporary) delete(store);
      System.out.println("STOPPED");
    });
    Runtime.getRuntime().addShutdownHook(stopper);
    // Wait until the default database is available before saying so.
    service.database(GraphDatabaseSettings.DEFAULT_DATABASE_NAME).executeTransactionally("RETURN 1");
    System.out.println("READY bolt://127.0.0.1:" + port);
    System.out.flush();
    // Standard input closing (the parent died or let go) stops the server.
    while (System.in.read() != -1) {}
    System.exit(0);
  }

  private static void delete(Path dir) {
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException ignored) {
      // best effort: the folder is in the temporary directory
    }
  }
}
