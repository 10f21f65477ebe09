package org.etw4j.spark;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The columns of one scan, in order: the full table's (which depend on the options: {@code payload}, the mode's
 * corrupt-record column and its name) or a pruned subset.
 *
 * <p>Immutable; thread-safe; serializable.
 */
record EtlSchema(List<EtlColumn> columns, String corruptName) implements Serializable {

    EtlSchema {
        columns = List.copyOf(columns);
    }

    static EtlSchema of(EtlOptions o) {
        List<EtlColumn> cols = new ArrayList<>();
        for (EtlColumn c : EtlColumn.values()) {
            if (c == EtlColumn.PAYLOAD && !o.payload()) {
                continue;
            }
            if (c == EtlColumn.CORRUPT_RECORD && o.mode() != EtlParseMode.PERMISSIVE) {
                continue;
            }
            cols.add(c);
        }
        return new EtlSchema(cols, o.corruptColumn());
    }

    String name(EtlColumn c) {
        return c == EtlColumn.CORRUPT_RECORD ? corruptName : c.defaultName();
    }

    StructType sparkSchema() {
        List<StructField> fields = new ArrayList<>();
        for (EtlColumn c : columns) {
            fields.add(DataTypes.createStructField(name(c), c.type(), true));
        }
        return DataTypes.createStructType(fields);
    }

    /** The columns of {@code required}, by name, in its order. */
    EtlSchema prune(StructType required) {
        List<EtlColumn> cols = new ArrayList<>();
        for (StructField f : required.fields()) {
            for (EtlColumn c : columns) {
                if (name(c).equals(f.name())) {
                    cols.add(c);
                }
            }
        }
        return new EtlSchema(cols, corruptName);
    }

    boolean needsDecoding() {
        return columns.stream().anyMatch(EtlColumn::decoded);
    }

    boolean has(EtlColumn c) {
        return columns.contains(c);
    }
}
