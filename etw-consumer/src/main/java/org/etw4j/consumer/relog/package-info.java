/**
 * The relogger: filters and merges .etl files into a new one, copying records byte for byte
 * ({@link org.etw4j.consumer.relog.Relogger}).
 */
package org.etw4j.consumer.relog;
