import Foundation

/// Decodes values from `Data`; used by `decode(type:decoder:)`.
///
/// `JSONDecoder` and `PropertyListDecoder` conform; conform your own decoders
/// to use them in a stream.
public protocol DataDecoder {
    /// Decodes a value of `type` from `data`.
    func decode<Item: Decodable>(_ type: Item.Type, from data: Data) throws -> Item
}

extension JSONDecoder: DataDecoder {}
extension PropertyListDecoder: DataDecoder {}

extension ObservableType where Element == Data {
    /// Decodes each element into a value of `type` with `decoder`.
    ///
    /// Completes with the source. Fails with the source or with the decoder's
    /// error when an element does not decode (the source is then disposed).
    ///
    /// ```
    /// source:                                          --{"id":1}--{"id":2}--|
    /// decode(type: User.self, decoder: JSONDecoder()): --User(1)---User(2)---|
    /// ```
    @_alwaysEmitIntoClient
    public func decode<Item: Decodable, Decoder: DataDecoder>(type: Item.Type, decoder: Decoder) -> Observable<Item> {
        map({ try decoder.decode(type, from: $0) })
    }
}
