import com.google.gson.Gson;
import java.io.File;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.pdfbox.pdmodel.PDDocument;
import technology.tabula.ObjectExtractor;
import technology.tabula.Page;
import technology.tabula.PageIterator;
import technology.tabula.Rectangle;
import technology.tabula.RectangularTextContainer;
import technology.tabula.Table;
import technology.tabula.detectors.NurminenDetectionAlgorithm;
import technology.tabula.extractors.BasicExtractionAlgorithm;
import technology.tabula.extractors.SpreadsheetExtractionAlgorithm;

/**
 * The tables of a PDF as Tabula finds them, one JSON array on standard output: each table's page (1-based), its box
 * in points from the page's top left, and its rows of cell texts. Tables are found by Tabula's detection (Nurminen),
 * then read as a ruled grid where the area has ruling lines, else by text alignment — what Tabula's own "guess" does,
 * with the page number kept (its command line drops it). Run by lib/ingest/pdf-tables/tabula.ts as a single source file.
 */
public class TabulaTables {
  public static void main(String[] args) throws Exception {
    List<Map<String, Object>> out = new ArrayList<>();
    try (PDDocument pdf = PDDocument.load(new File(args[0])); ObjectExtractor extractor = new ObjectExtractor(pdf)) {
      NurminenDetectionAlgorithm detector = new NurminenDetectionAlgorithm();
      SpreadsheetExtractionAlgorithm ruled = new SpreadsheetExtractionAlgorithm();
      BasicExtractionAlgorithm aligned = new BasicExtractionAlgorithm();
      PageIterator pages = extractor.extract();
      while (pages.hasNext()) {
        Page page = pages.next();
        for (Rectangle area : detector.detect(page)) {
          Page part = page.getArea(area);
          List<Table> tables = ruled.isTabular(part) ? ruled.extract(part) : aligned.extract(part);
          for (Table table : tables) {
            List<List<String>> rows = new ArrayList<>();
            for (List<RectangularTextContainer> row : table.getRows()) {
              List<String> cells = new ArrayList<>();
              for (RectangularTextContainer cell : row) cells.add(cell.getText());
              rows.add(cells);
            }
            Map<String, Object> t = new LinkedHashMap<>();
            t.put("page", page.getPageNumber());
            t.put("top", table.getTop());
            t.put("left", table.getLeft());
            t.put("bottom", table.getBottom());
            t.put("right", table.getRight());
            t.put("rows", rows);
            out.add(t);
          }
        }
      }
    }
    System.out.println(new Gson().toJson(out));
  }
}
