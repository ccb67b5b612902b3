// Its own file so that the contract and the recovery types (which keep a recovered document's stamp) both take it
// without importing each other.

/**
 * Which version of a file is on disk, as main read or wrote it (electron/services/file-io.ts fileStamp): a
 * save over the file sends it back (SaveOptions.expect) and is refused with E_IO_CHANGED when the file on disk
 * is no longer that version (another program wrote it meanwhile). Opaque to the renderer: kept and sent back.
 */
export interface FileStamp {
  /** Bytes. */
  size: number;
  /** Modification time in nanoseconds since the epoch, as decimal text (exact: a bigint does not cross as JSON). */
  mtimeNs: string;
  /** Inode (file id) as decimal text: a file replaced by another (a temp renamed over it) has another. */
  ino: string;
  /**
   * SHA-256 of the bytes (hex), only when the stamp was taken within RACY_MS of the file's modification time:
   * a write in that window could leave size, time and inode as they were (coarse clocks), so the bytes decide.
   */
  sha256?: string;
}
